"""The write-policy panel's logic, driven in Python without a browser."""

from __future__ import annotations

import pytest

from primer_memory.policy.rules import DETECTORS, POLICY_EXAMPLES, review
from primer_memory.lessons.widgets import policy_panel, policy_view


def test_view_shows_verdict_detector_and_reason() -> None:
    view = policy_view("my VPN password is hunter2")
    assert (view.verdict, view.detector) == ("refuse", "password_phrase")
    page = view.html()
    assert "REFUSE" in page and "<code>password_phrase</code>" in page
    assert "my VPN password is [REDACTED:password_phrase]" in page


def test_view_never_contains_the_secret() -> None:
    for sentence in ("my VPN password is hunter2", "card 4111 1111 1111 1111, exp 12/30",
                     "AKIAUITM3KJG7ONJ6NBE is the key id"):
        view = policy_view(sentence)
        for secret in ("hunter2", "4111 1111 1111 1111", "AKIAUITM3KJG7ONJ6NBE"):
            assert secret not in view.html() and secret not in repr(view)


def test_view_of_stored_and_skipped_text() -> None:
    assert "STORE" in policy_view("Alice approves travel for her team.").html()
    skipped = policy_view("thanks, great!")
    assert skipped.verdict == "skip" and "small_talk" in skipped.html()
    page = policy_view("<script>alert(1)</script> my VPN password is hunter2").html()
    assert "&lt;script&gt;" in page and "<script>" not in page


def test_presets_cover_every_verdict_and_agree_with_review() -> None:
    verdicts = {review(sentence).verdict for _, sentence in POLICY_EXAMPLES}
    assert verdicts == {"store", "skip", "refuse"}
    assert len(DETECTORS) >= 15


def test_panel_updates_when_text_or_preset_changes() -> None:
    pytest.importorskip("ipywidgets")
    panel = policy_panel()
    assert repr(panel) == "PolicyPanel()"
    assert "REFUSE" in panel.text.value
    panel.controls["text"].value = "The token budget is 300."
    assert "STORE" in panel.text.value
    panel.controls["preset"].value = "thanks, great!"
    assert panel.controls["text"].value == "thanks, great!" and "SKIP" in panel.text.value
    panel.controls["preset"].value = "IBAN GB82 WEST 1234 5698 7654 32"
    assert "<code>iban</code>" in panel.text.value


def test_panel_widgets_have_the_classes_the_browser_test_uses() -> None:
    pytest.importorskip("ipywidgets")
    panel = policy_panel()
    assert "pm-policy-input" in panel.controls["text"]._dom_classes
    assert "pm-policy-preset" in panel.controls["preset"]._dom_classes
    assert "pm-policy-text" in panel.text._dom_classes


def _panel_tells_the_truth(text: str) -> bool:
    """The verdict, detector and reason the panel shows are review()'s, and the masked text holds no finding and
    none of the matched secrets."""
    import html as html_module

    from primer_memory.policy.rules import findings

    decision, view = review(text), policy_view(text)
    page = view.html()
    if not text.strip():  # nothing typed: the panel says so instead of calling it small talk (issue 49)
        return "Nothing to judge yet" in page and view.detector is None
    if (view.verdict, view.reason, view.detector) != (decision.verdict, decision.reason, decision.detector):
        return False
    if f">{decision.verdict.upper()}</b>" not in page or html_module.escape(decision.reason) not in page:
        return False
    if ("The text with the finding masked" in page) != (decision.verdict == "refuse"):
        return False
    if decision.verdict == "refuse":
        if findings(view.redacted):
            return False
        for f in findings(text):
            secret = text[f.start:f.end]
            if len(secret) >= 6 and (secret in page or secret in view.redacted):
                return False
    return True


def test_every_policy_panel_message_is_true_over_the_corpus() -> None:
    """For every labelled sentence and preset, the panel tells the truth. A failure names the texts of the halves
    tuned on, and only counts those of the corpora kept out of tuning (fourth to seventh), so it never shows them."""
    from primer_memory.policy.corpora.loader import COUNTED_ONLY, CORPUS

    shown = [c.text for c in CORPUS if c.source not in COUNTED_ONLY]
    shown += [s for _, s in POLICY_EXAMPLES] + ["", " ", "<b>x</b>"]
    assert [t for t in shown if not _panel_tells_the_truth(t)] == []
    kept_out = [c.text for c in CORPUS if c.source in COUNTED_ONLY]
    assert sum(not _panel_tells_the_truth(t) for t in kept_out) == 0, "panel untrue on a kept-out text (count only)"
