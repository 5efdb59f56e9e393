"""How a press travels from a table's controls to the live game, exactly once.

Every control that makes a game action shows a *stamp*: the game version the table displays
and a counter of the answers this table has given, ``"<version>.<answers>"``. The stamp is
rendered into the page with the control, and the browser sends the stamp the person saw with
the press, so the live game can refuse a press made against any other position (a double
tap, a second tab, a frame replayed later): it is never checked against whatever the server
drew last.

In the browser, a press also holds every stamped control of the page until an answer
arrives: every answer (the next position, a refusal, a reconnection) changes the stamp, and
the script below lets go when it sees a new one. The keyboard shortcuts (R or Space rolls,
1-4 choose a piece) press the same buttons, so they take the same path; Escape presses the
finish card's close button.
"""

from __future__ import annotations

from typing import Any

PRESS_SCRIPT = """
<script>
(() => {
  let pending = null;
  const shown = () => document.querySelector('[data-stamp]')?.dataset.stamp ?? null;
  const watch = new MutationObserver(() => {
    if (pending !== null && shown() !== pending) release();
  });
  const release = () => {
    pending = null;
    watch.disconnect();
    document.body.removeAttribute('data-pending');
    document.querySelectorAll('[aria-busy="true"]').forEach((b) => b.removeAttribute('aria-busy'));
  };
  window.parcheesiClaim = (stamp) => {
    if (typeof stamp !== 'string' || !stamp || stamp === pending) return false;
    pending = stamp;
    document.body.setAttribute('data-pending', '');
    watch.observe(document.body, {subtree: true, childList: true, attributes: true,
                                  attributeFilter: ['data-stamp']});
    return true;
  };
  window.parcheesiPress = (e, emit, blur) => {
    const button = e.currentTarget;
    if (button.disabled || !window.parcheesiClaim(button.dataset.stamp)) return;
    button.setAttribute('aria-busy', 'true');
    if (blur) button.blur();
    emit(button.dataset.stamp);
  };
  addEventListener('keydown', (e) => {
    if (e.repeat || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest?.('input, select, textarea, [contenteditable]')) return;
    // The hand-over screen covers the table: its keys are its own button's.
    if (document.querySelector('[data-testid="hand-over"]')) return;
    const key = e.key.toLowerCase();
    if (key === 'escape') {
      document.querySelector('[data-testid="finish-close"]')?.click();
      return;
    }
    const digit = key.length === 1 && '1234'.includes(key);
    // Space rolls too, unless it is pressing the focused control (its own meaning).
    const space = key === ' ' && !e.target.closest?.('button, a, [role=button], [tabindex]');
    const keyed = key === 'r' ? 'roll' : (key === 'u' ? 'undo' : null);
    const testid = space ? 'roll' : (keyed || (digit ? 'piece-' + key : null));
    const button = testid && document.querySelector(`[data-testid="${testid}"]`);
    if (button && !button.disabled) {
      e.preventDefault();
      button.click();
    }
  });
})();
</script>
"""
"""Added to the head of every table page."""

MAX_STAMP = 24
"""Characters a stamp may have (two counters and a dot); anything longer is forged."""


def stamp_text(version: int, answers: int) -> str:
    return f"{version}.{answers}"


def version_of(stamp: Any) -> int | None:
    """The game version a press was made against, or None for anything that is not a stamp
    this server could have drawn (missing, not text, malformed)."""
    if not isinstance(stamp, str) or len(stamp) > MAX_STAMP:
        return None
    version, dot, answers = stamp.partition(".")
    if not (dot and version.isdigit() and answers.isdigit() and version.isascii()
            and answers.isascii()):
        return None
    return int(version)
