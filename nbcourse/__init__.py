"""nbcourse: the small library behind the course book on naive Bayes with discrete features.

Part I follows Duda, Hart & Stork (2001) §2.9 (binary features, linear discriminants);
Part II follows Williams (2024) (categorical versus product-of-Bernoullis naive Bayes).
Every public name is listed in ``__all__``; each section below belongs to one module.
"""

__version__ = "0.1.0"

__all__: list[str] = ["__version__"]

# --- discrete.py: Duda, Hart & Stork §2.9 ---
from .discrete import (  # noqa: E402
    binary_discriminant,
    cube_corners,
    decide,
    estimate_binary,
    linear_discriminant,
    log_joint_binary,
    log_likelihood_binary,
    log_posterior_binary,
    log_posterior_ratio,
    two_class_discriminant,
)

__all__ += [
    "binary_discriminant",
    "cube_corners",
    "decide",
    "estimate_binary",
    "linear_discriminant",
    "log_joint_binary",
    "log_likelihood_binary",
    "log_posterior_binary",
    "log_posterior_ratio",
    "two_class_discriminant",
]

# --- sampling.py: counting feature vectors, sampling binary naive Bayes data ---
from .sampling import (  # noqa: E402
    bernoulli_estimate_mse,
    count_empty_cells,
    expected_empty_cells,
    n_feature_vectors,
    n_parameters_joint,
    n_parameters_naive,
    sample_binary_features,
    sample_binary_naive_bayes,
    sample_labels,
    sample_uniform_codes,
)

__all__ += [
    "bernoulli_estimate_mse",
    "count_empty_cells",
    "expected_empty_cells",
    "n_feature_vectors",
    "n_parameters_joint",
    "n_parameters_naive",
    "sample_binary_features",
    "sample_binary_naive_bayes",
    "sample_labels",
    "sample_uniform_codes",
]

# --- naive_bayes.py: the categorical and product-of-Bernoullis models ---
from .naive_bayes import (  # noqa: E402
    CategoricalNB,
    ProductOfBernoullisNB,
    find_one_hot_groups,
    one_hot,
    one_hot_groups,
    variance_inflation_factors,
)

__all__ += [
    "CategoricalNB",
    "ProductOfBernoullisNB",
    "find_one_hot_groups",
    "one_hot",
    "one_hot_groups",
    "variance_inflation_factors",
]

# --- onehot.py: Williams (2024) analysis of Q^{-j} ---
from .onehot import (  # noqa: E402
    categorical_linear_weights,
    f_j,
    guaranteed_more_extreme,
    linear_score,
    log_f_j,
    log_posterior_categorical,
    log_posterior_pob,
    log_q_minus_all,
    log_q_minus_j,
    lower_bound,
    pob_linear_weights,
    posterior_categorical,
    posterior_pob,
    posterior_table,
    q_minus_j,
    q_minus_j_at_centre,
    theta_at_centre,
    upper_bound,
)

__all__ += [
    "categorical_linear_weights",
    "f_j",
    "guaranteed_more_extreme",
    "linear_score",
    "log_f_j",
    "log_posterior_categorical",
    "log_posterior_pob",
    "log_q_minus_all",
    "log_q_minus_j",
    "lower_bound",
    "pob_linear_weights",
    "posterior_categorical",
    "posterior_pob",
    "posterior_table",
    "q_minus_j",
    "q_minus_j_at_centre",
    "theta_at_centre",
    "upper_bound",
]

# --- experiments.py: Williams (2024) §3 experiments ---
from .experiments import (  # noqa: E402, I001
    PAPER_VALUES, Fig3Data, ModelComparison, ObservationComparison, PaperCell, PaperTable,
    SamplingDistribution, compare_models, compare_observations, fig2_data, fig3_data,
    log_posteriors, paper_consistency, paper_table, prior_alpha_evidence,
    sample_log_classifiers, sample_log_dirichlet, sampling_distribution, simulate_replicates,
)
__all__ += [
    "PAPER_VALUES", "Fig3Data", "ModelComparison", "ObservationComparison", "PaperCell",
    "PaperTable", "SamplingDistribution", "compare_models", "compare_observations", "fig2_data",
    "fig3_data", "log_posteriors", "paper_consistency", "paper_table", "prior_alpha_evidence",
    "sample_log_classifiers", "sample_log_dirichlet", "sampling_distribution",
    "simulate_replicates",
]

# --- interact.py: interactive figures ---
from .interact import Explorer, explore  # noqa: E402, I001
__all__ += ["Explorer", "explore"]

# --- datasets.py and plots.py ---
from .datasets import CountTable, expand_counts, hair_eye_color, titanic  # noqa: E402, I001
__all__ += ["CountTable", "expand_counts", "hair_eye_color", "titanic"]

# --- evaluation.py ---
from .evaluation import (  # noqa: E402, I001
    CrossValidation,
    FeatureSimulation,
    Reliability,
    cross_validate_models,
    expected_calibration_error,
    log_loss,
    reliability_bins,
    simulate_several_features,
)
__all__ += [
    "CrossValidation",
    "FeatureSimulation",
    "Reliability",
    "cross_validate_models",
    "expected_calibration_error",
    "log_loss",
    "reliability_bins",
    "simulate_several_features",
]
