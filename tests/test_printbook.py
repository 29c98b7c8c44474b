"""The print extension's bookkeeping that needs no build (nbcourse_book.printing)."""

from types import SimpleNamespace

from nbcourse_book.printing import reread_gathering_pages


def test_pages_that_gather_from_the_book_are_read_again_when_another_document_is():
    env = SimpleNamespace(metadata={"book/answers": {"nbcourse_gathers": True},
                                    "book/solutions": {"nbcourse_gathers": True},
                                    "book/intro": {"title": "x"}})
    gathering = ["book/answers", "book/solutions"]
    assert reread_gathering_pages(None, env, set(), {"book/part1/01"}, set()) == gathering
    assert reread_gathering_pages(None, env, {"book/new"}, set(), set()) == gathering
    assert reread_gathering_pages(None, env, set(), set(), {"book/solutions"}) == ["book/answers"]
    assert reread_gathering_pages(None, env, set(), set(), set()) == []
