"""The book's math renderer (nbcourse_book.mathml): KaTeX's MathML made MathML Core."""


import pytest

from nbcourse_book import mathml as bookmath

NS = 'xmlns="http://www.w3.org/1998/Math/MathML"'


@pytest.mark.parametrize("char, variant, expected", [
    ("θ", "bold-italic", "\U0001D73D"),  # MATHEMATICAL BOLD ITALIC SMALL THETA
    ("e", "bold", "\U0001D41E"),  # MATHEMATICAL BOLD SMALL E
    ("Θ", "bold", "\U0001D6AF"),  # MATHEMATICAL BOLD CAPITAL THETA
    ("1", "bold", "\U0001D7CF"),  # MATHEMATICAL BOLD DIGIT ONE
    ("x", "double-struck", "\U0001D569"),  # MATHEMATICAL DOUBLE-STRUCK SMALL X
    ("R", "double-struck", "\u211D"),  # DOUBLE-STRUCK CAPITAL R (a gap in the alphabet)
    ("h", "italic", "\u210E"),  # PLANCK CONSTANT (a gap in the italic alphabet)
    ("C", "fraktur", "\u212D"),  # BLACK-LETTER CAPITAL C
    ("a", "bold-sans-serif", "\U0001D5EE"),  # MATHEMATICAL SANS-SERIF BOLD SMALL A
    ("+", "bold", "+"),  # no bold plus sign in Unicode: left as it is
])
def test_styled_letters_are_unicode_mathematical_alphanumerics(char, variant, expected):
    assert bookmath.styled(char, variant) == expected


def test_mathvariant_becomes_code_points_and_tokens_hold_only_text():
    katex = (f'<math {NS}><semantics><mrow><mi mathvariant="bold-italic">θ</mi>'
             '<mo><mover><mo><mo>=</mo></mo><mtext>def</mtext></mover></mo>'
             '<mi mathvariant="normal">ℓ</mi></mrow>'
             '<annotation encoding="application/x-tex">a &amp; &lt;b</annotation>'
             '</semantics></math>')
    assert bookmath.core_mathml(katex) == (
        f'<math {NS}><semantics><mrow><mi>\U0001D73D</mi>'
        '<mrow><mover><mrow><mo>=</mo></mrow><mtext>def</mtext></mover></mrow>'
        '<mi mathvariant="normal">ℓ</mi></mrow>'
        '<annotation encoding="application/x-tex">a &amp; &lt;b</annotation>'
        '</semantics></math>')


def test_a_formula_of_one_element_has_no_mrow_around_it():
    one = (f'<math {NS}><semantics><mrow><mi>α</mi></mrow>'
           '<annotation encoding="application/x-tex">\\alpha</annotation></semantics></math>')
    assert bookmath.core_mathml(one) == (
        f'<math {NS}><semantics><mi>α</mi>'
        '<annotation encoding="application/x-tex">\\alpha</annotation></semantics></math>')
    # two elements need their <mrow>: <semantics> annotates its first child alone
    two = one.replace("<mi>α</mi>", "<mi>α</mi><mn>1</mn>")
    assert "<semantics><mrow><mi>α</mi><mn>1</mn></mrow>" in bookmath.core_mathml(two)
