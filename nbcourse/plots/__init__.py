"""Figure functions for the book.

Every function takes ``ax=None`` (it draws into ``ax`` when given, otherwise into a new
figure) and returns the Axes it drew on, so tests can inspect it and exercises reuse it.
``duda.py`` holds Part I's figures, ``williams.py`` Part II's; ``style.py`` the shared look.
"""

from .style import COLORS, get_axes

__all__ = ["COLORS", "get_axes"]

# --- duda.py: Part I figures ---
from .duda import (  # noqa: E402
    CLASS_COLORS,
    CLASS_MARKERS,
    plane_in_cube,
    plot_cube_decisions,
    plot_cube_multiclass,
    plot_discriminant_panel,
    plot_empty_cells,
    plot_estimate_distribution,
    plot_estimation_error,
    plot_table_growth,
    plot_weight_bars,
    plot_weights_by_feature,
    plot_weights_vs_n,
)

__all__ += [
    "CLASS_COLORS",
    "CLASS_MARKERS",
    "plane_in_cube",
    "plot_cube_decisions",
    "plot_cube_multiclass",
    "plot_discriminant_panel",
    "plot_empty_cells",
    "plot_estimate_distribution",
    "plot_estimation_error",
    "plot_table_growth",
    "plot_weight_bars",
    "plot_weights_by_feature",
    "plot_weights_vs_n",
]

# --- williams.py: Part II figures ---
from .williams import (  # noqa: E402, I001
    plot_bounds,
    plot_discriminant_weights,
    plot_guarantee_region,
    plot_log_ratio_scatter,
    plot_max_posterior,
    plot_posteriors,
    plot_q_simplex,
    plot_q_star,
    plot_rate_curves,
    plot_reliability,
    plot_sampling_distribution,
    plot_sampling_grid,
    simplex_grid,
)
__all__ += [
    "plot_bounds",
    "plot_discriminant_weights",
    "plot_guarantee_region",
    "plot_log_ratio_scatter",
    "plot_max_posterior",
    "plot_posteriors",
    "plot_q_simplex",
    "plot_q_star",
    "plot_rate_curves",
    "plot_reliability",
    "plot_sampling_distribution",
    "plot_sampling_grid",
    "simplex_grid",
]
