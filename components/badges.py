"""The player badges: one per active seat, in turn order, the seat to act raised and ringed
in its colour. Drawn by the table and by the TV view from the model's :class:`Badge`s."""

from __future__ import annotations

from nicegui import ui

from parcheesi.server.live import LiveGame

from .region import Region
from .table_model import Badge
from .updates import set_props


class Badges:
    """The badges of one game's active seats (``player-<colour>``), updated in place; on a
    turn clock, the seat to act's countdown (``clock-<colour>``)."""

    def __init__(self, game: LiveGame) -> None:
        colours = game.rules.colours
        self.game = game
        self.drawn: tuple[Badge, ...] = ()
        self.items: list[tuple[ui.element, ui.label, ui.label]] = []
        self.clocks: list[ui.element] = []
        with Region().classes("badges w-full").props(
                'role=list aria-label=Players') as self.region:
            for colour in game.state.colours:
                with ui.element("div").classes(f"badge tone-{colours[colour]}").props(
                        f'role=listitem data-testid=player-{colours[colour]}') as badge:
                    ui.element("span").classes("badge-dot")
                    with ui.element("div").classes("badge-text"):
                        name = ui.label("").classes("badge-name")
                        detail = ui.label("").classes("badge-detail")
                        clock = ui.element("span").classes("badge-clock").props(
                            f'role=timer data-testid=clock-{colours[colour]}')
                        clock.set_visibility(False)
                self.items.append((badge, name, detail))
                self.clocks.append(clock)

    def show(self, badges: tuple[Badge, ...]) -> None:
        """Who plays each seat, how far they are, and which seat is to act (only what
        changed is sent)."""
        if badges == self.drawn:
            return
        self.drawn = badges
        for (badge, name, detail), shown in zip(self.items, badges, strict=True):
            name.set_text(shown.name)
            detail.set_text(" · ".join(p for p in (shown.detail, shown.place_text,
                                                    f"{shown.home} HOME") if p))
            set_props(badge, {"aria-label": shown.label,
                              "aria-current": "true" if shown.current else "false"})
            if shown.current != ("badge-current" in badge.classes):
                badge.classes(add="badge-current") if shown.current else badge.classes(
                    remove="badge-current")
        for clock, shown in zip(self.clocks, badges, strict=True):
            self._show_clock(clock, shown.deadline)

    def _show_clock(self, clock: ui.element, deadline: int | None) -> None:
        """The badge's countdown: the deadline and the server's time now, from which the
        page's script (``CLOCK_SCRIPT``) counts down on its own every second."""
        if deadline is None:
            clock.set_visibility(False)
            set_props(clock, {}, remove=("data-deadline", "data-sent"))
            return
        if clock.props.get("data-deadline") != str(deadline):
            sent = round(self.game.wall().timestamp() * 1000)
            set_props(clock, {"data-deadline": str(deadline), "data-sent": str(sent)})
        clock.set_visibility(True)


CLOCK_SCRIPT = """
<script>
(() => {
  if (window.parcheesiClock) return;
  window.parcheesiClock = true;
  // Each clock counts down to its data-deadline, measured against the server's time it was
  // sent with (data-sent), so a phone whose own clock is off still shows the right time.
  const shown = (s) => {
    if (s >= 3600) {
      const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
      return `${h} h ${String(m).padStart(2, '0')} min`;
    }
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  };
  // What a screen reader is told changes only at coarse steps (a timer is not announced).
  const said = (s) => {
    if (s <= 0) return 'Time is up';
    if (s <= 10) return '10 seconds or less left';
    if (s < 60) return 'Under a minute left';
    if (s < 7200) return `About ${Math.ceil(s / 60)} minutes left`;
    if (s < 172800) return `About ${Math.ceil(s / 3600)} hours left`;
    return `About ${Math.ceil(s / 86400)} days left`;
  };
  const tick = () => {
    document.querySelectorAll('[data-deadline]').forEach((el) => {
      const sent = Number(el.dataset.sent), deadline = Number(el.dataset.deadline);
      if (el._sent !== sent) { el._sent = sent; el._offset = sent - Date.now(); }
      const left = Math.max(0, Math.ceil((deadline - (Date.now() + el._offset)) / 1000));
      const text = shown(left);
      if (el.textContent !== text) el.textContent = text;
      const words = said(left);
      if (el.getAttribute('aria-label') !== words) el.setAttribute('aria-label', words);
    });
  };
  setInterval(tick, 1000);
  new MutationObserver(tick).observe(document.documentElement,
    {subtree: true, attributes: true, attributeFilter: ['data-deadline']});
})();
</script>
"""
"""Counts the turn clocks down in the browser (the badges', the lists of games'): the server
sends each deadline once, no timer runs on the server for it. Every page has it in its head
(``pages.page_head``)."""

