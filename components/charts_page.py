"""The post-game charts of one game (``/games/<id>/charts``): the race, the luck of the
dice and (a game with a learned evaluation) the chances to win, drawn with NiceGUI's
ECharts (``ui.echart``, whose library only this page and a person's page load; never the
table).

The data comes from :mod:`parcheesi.server.charts` (the game's record, replayed); this module
only turns it into chart options, in the board's colours (the game's look), and into the words
a screen reader (or anyone) reads instead of the pictures. A game still being played gets
no charts yet: they come after the game, as the issue asks, so they never tell a player
anything about a game going on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nicegui import ui
from nicegui.elements.mixins.text_element import TextElement

from parcheesi.server.charts import Charts, Luck, charts_of
from parcheesi.server.live import Seat
from parcheesi.server.records import Record, RecordError, read_record, replay

from .palette import DARK_TOKENS, LIGHT_TOKENS
from .updates import set_props

AVERAGE_GREY = "#9e9892"
"""The fair averages' bars: a neutral beside the players' colours."""


@dataclass(frozen=True)
class Ink:
    """The charts' text and line colours on the page's surface (light or dark)."""

    text: str
    muted: str
    line: str

    @classmethod
    def of(cls, tokens: dict[str, str]) -> Ink:
        return cls(text=tokens["text"], muted=tokens["muted"], line=tokens["line"])


LIGHT = Ink.of(LIGHT_TOKENS)
DARK = Ink.of(DARK_TOKENS)
"""The pages' design colours (ECharts draws on a canvas, which reads no CSS)."""


@dataclass(frozen=True)
class Game:
    """One finished game as the charts page shows it."""

    record: Record
    charts: Charts
    names: dict[int, str]
    """Colour -> the player's label: "Ann (Ruby)", or the colour alone."""
    fills: dict[int, str]

    @property
    def colours(self) -> tuple[int, ...]:
        return self.charts.race.colours

    def colour_name(self, colour: int) -> str:
        return self.record.rules.colours[colour].title()


def label(seat: Seat, colours: tuple[str, ...]) -> str:
    colour = colours[seat.colour].title()
    return f"{seat.name} ({colour})" if seat.name else colour


def finished_game(raw: dict[str, Any]) -> Game | str:
    """The charts of a stored game's record, or why there are none (a message)."""
    try:
        record = read_record(raw)
        if not (record.result or {}).get("over"):
            return ("The charts come after the game: this game is still being played. "
                    "Come back when it is over.")
        steps = replay(record)
    except RecordError as error:
        return f"This game's record cannot be read back ({error}), so it has no charts."
    colours = record.rules.colours
    return Game(record=record, charts=charts_of(record.rules, steps),
                names={s.colour: label(s, colours) for s in record.seats},
                fills={s.colour: record.rules.look.paints[s.colour].fill
                       for s in record.seats})


# --- words ---------------------------------------------------------------------------------

def outcome(game: Game) -> str:
    """"<title> · Ruby won · 212 rolls in play" (the opening rolls, which only decide who
    starts, are not counted: a record's verification counts them too)."""
    winner = game.record.result.get("winner") if game.record.result else None
    won = f"{winner.title()} won" if winner else "no winner"
    return f"{game.record.rules.title} · {won} · {game.charts.race.rolls} rolls in play"


def race_lines(game: Game) -> list[str]:
    """One line per player: how far they came and their captures, made and suffered."""
    race = game.charts.race
    lines = []
    for colour in game.colours:
        share = race.share(colour, race.rolls)
        where = ("all four pieces HOME" if share == 100 else f"{share:g}% of the way HOME")
        made = sum(1 for c in race.captures if c.by == colour)
        taken = sum(1 for c in race.captures if c.victim == colour)
        lines.append(f"{game.names[colour]}: {where}; captured {_times(made)}, "
                     f"was captured {_times(taken)}.")
    return lines


def race_summary(game: Game) -> str:
    race = game.charts.race
    return (f"Race chart: each player's share of the way HOME after every one of the "
            f"{race.rolls} rolls, with {len(race.captures)} "
            f"{'capture' if len(race.captures) == 1 else 'captures'} marked. "
            + " ".join(race_lines(game)))


def chance_points(game: Game) -> dict[int, list[float]]:
    """Each colour's chances up to the roll that decided the winner: after it they stand
    still (a table playing on for places plays for the places, not the win)."""
    chances = game.charts.chances or {}
    return {colour: line[:game.charts.decided + 1] for colour, line in chances.items()}


def chance_lines(game: Game) -> list[str]:
    """One line per player: their chance to win at the start and before the winning roll,
    at its highest and at its lowest (with when)."""
    points = chance_points(game)
    lines = []
    for colour in game.colours:
        line = points[colour]
        last = line[-2] if len(line) > 1 else line[-1]
        high = max(range(len(line)), key=lambda k: (line[k], -k))
        low = min(range(len(line)), key=lambda k: (line[k], k))
        lines.append(f"{game.names[colour]}: {line[0]:g}% at the start, {last:g}% before the "
                     f"winning roll; highest {line[high]:g}% (after {_rolls(high)}), lowest "
                     f"{line[low]:g}% (after {_rolls(low)}).")
    return lines


def chance_summary(game: Game) -> str:
    return ("Chances chart: each player's chance to win after every roll, as the computer's "
            "learned evaluation saw it. " + " ".join(chance_lines(game)))


def _rolls(n: int) -> str:
    return "1 roll" if n == 1 else f"{n} rolls"


def luck_lines(game: Game) -> list[str]:
    name = game.charts.lucky_name
    return [f"{game.names[luck.colour]}: {luck.rolls} rolls, {luck.pips} pips "
            f"(fair average {luck.average_pips:g}), {luck.lucky} {name} "
            f"(fair average {luck.average_lucky:.1f})." for luck in game.charts.luck]


def luck_summary(game: Game) -> str:
    return (f"Luck chart: each player's pips and {game.charts.lucky_name} against the fair "
            "average for the rolls they made. " + " ".join(luck_lines(game)))


def _times(n: int) -> str:
    return "never" if n == 0 else "once" if n == 1 else f"{n} times"


# --- chart options -------------------------------------------------------------------------

def axis(ink: Ink, **extra: Any) -> dict[str, Any]:
    return {"axisLine": {"lineStyle": {"color": ink.muted}},
            "axisLabel": {"color": ink.text, "fontSize": 12},
            "splitLine": {"lineStyle": {"color": ink.line}},
            "nameTextStyle": {"color": ink.text, "fontSize": 13}, **extra}


def _legend(ink: Ink) -> dict[str, Any]:
    return {"top": 0, "left": 0, "itemGap": 14, "itemWidth": 22, "itemHeight": 12,
            "textStyle": {"color": ink.text, "fontSize": 14}}


def _legend_height(game: Game) -> int:
    """Room for the race's legend: one row of short names on a phone, else two."""
    return 24 if sum(len(name) + 5 for name in game.names.values()) <= 48 else 48


def race_options(game: Game, ink: Ink = LIGHT) -> dict[str, Any]:
    """A line per colour, its share of the way HOME (percent) after every roll; a capture
    is a downward triangle in the capturer's colour where the captured line drops."""
    race = game.charts.race
    series = []
    for colour in game.colours:
        marks = [{"name": f"{game.colour_name(c.by)} captured {game.colour_name(colour)}",
                  "coord": [c.roll, race.share(colour, c.roll)],
                  "itemStyle": {"color": game.fills[c.by], "borderColor": ink.text,
                                "borderWidth": 1}}
                 for c in race.captures if c.victim == colour]
        series.append({
            "name": game.names[colour], "type": "line", "showSymbol": False,
            "color": game.fills[colour], "lineStyle": {"width": 2.5},
            "data": [[k, race.share(colour, k)] for k in range(race.rolls + 1)],
            "markPoint": {"symbol": "triangle", "symbolRotate": 180, "symbolSize": 11,
                          "label": {"show": False}, "data": marks}})
    return {
        "animation": False, "backgroundColor": "transparent",
        "textStyle": {"color": ink.text},
        "legend": _legend(ink),
        "tooltip": {"trigger": "axis"},
        "grid": {"left": 46, "right": 14, "top": _legend_height(game) + 16, "bottom": 46},
        "xAxis": axis(ink, type="value", min=0, name="Rolls", nameLocation="middle",
                       nameGap=28, splitLine={"show": False}),
        "yAxis": axis(ink, type="value", min=0, max=100, interval=25,
                       axisLabel={"color": ink.text, "fontSize": 12,
                                  "formatter": "{value}%"}),
        "series": series,
    }


def chance_options(game: Game, ink: Ink = LIGHT) -> dict[str, Any]:
    """A line per colour, its chance to win (percent) after every roll until the winner is
    known."""
    points = chance_points(game)
    series = [{"name": game.names[colour], "type": "line", "showSymbol": False,
               "color": game.fills[colour], "lineStyle": {"width": 2.5},
               "data": [[k, value] for k, value in enumerate(points[colour])]}
              for colour in game.colours]
    return {**race_options(game, ink), "series": series}


def luck_options(game: Game, ink: Ink = LIGHT) -> dict[str, Any]:
    """Two bar charts, one above the other: each player's pips, then their lucky rolls
    (doubles or sixes), each bar in the player's colour beside the fair average in grey."""
    luck = game.charts.luck
    names = [game.names[row.colour] for row in luck]
    lucky_title = game.charts.lucky_name.title()
    grids = [{"left": 46, "right": 14, "top": 64, "height": "30%"},
             {"left": 46, "right": 14, "bottom": 36, "height": "30%"}]
    x_axes = [axis(ink, type="category", data=names, gridIndex=k,
                    axisLabel={"color": ink.text, "fontSize": 12, "interval": 0,
                               "width": 84, "overflow": "break"}) for k in (0, 1)]
    y_axes = [axis(ink, type="value", gridIndex=0, name="Pips", nameGap=10,
                    nameTextStyle={"color": ink.text, "fontSize": 13, "align": "left"}),
              axis(ink, type="value", gridIndex=1, name=lucky_title, nameGap=10,
                    minInterval=1,
                    nameTextStyle={"color": ink.text, "fontSize": 13, "align": "left"})]
    series = []
    for k, (rolled, average) in enumerate(((_pips, _average_pips), (_lucky, _average_lucky))):
        series.append(_bars("Rolled", k, [{"value": rolled(row), "itemStyle": {
            "color": game.fills[row.colour]}} for row in luck], ink.text, ink))
        series.append(_bars("Fair average", k, [average(row) for row in luck],
                            AVERAGE_GREY, ink))
    return {
        "animation": False, "backgroundColor": "transparent",
        "textStyle": {"color": ink.text},
        "legend": {**_legend(ink), "data": ["Rolled", "Fair average"]},
        "tooltip": {"trigger": "axis", "axisPointer": {"type": "shadow"}},
        "grid": grids, "xAxis": x_axes, "yAxis": y_axes, "series": series,
    }


def _bars(name: str, grid: int, data: list[Any], colour: str, ink: Ink) -> dict[str, Any]:
    return {"name": name, "type": "bar", "xAxisIndex": grid, "yAxisIndex": grid,
            "color": colour, "data": data, "barGap": "12%", "barMaxWidth": 34,
            "label": {"show": True, "position": "top", "color": ink.text, "fontSize": 12}}


def _pips(row: Luck) -> int:
    return row.pips


def _average_pips(row: Luck) -> float:
    return round(row.average_pips, 1)


def _lucky(row: Luck) -> int:
    return row.lucky


def _average_lucky(row: Luck) -> float:
    return round(row.average_lucky, 1)


# --- the page's content --------------------------------------------------------------------

class ChartsView:
    """Both charts of a finished game, stacked full width, each with its words below."""

    def __init__(self, game: Game) -> None:
        self.game = game
        TextElement(tag="h1", text="How the game went")
        ui.label(outcome(game)).classes("text-base").props('data-testid=charts-outcome')
        self.race = self._chart("The race", "race", race_options(game), race_summary(game),
                                race_lines(game), "▼ marks a capture: on the captured "
                                "player's line, in the capturer's colour.")
        self.luck = self._chart("The luck of the dice", "luck", luck_options(game),
                                luck_summary(game), luck_lines(game),
                                "Each player's bars in their colour; grey: what fair dice give on "
                                "average for that many rolls.")
        self.chances = None if game.charts.chances is None else self._chart(
            "The chances to win", "chances", chance_options(game), chance_summary(game),
            chance_lines(game), "Each player's chance to win after every roll, by the "
            "learned evaluation Expert plays with.")

    def _chart(self, title: str, name: str, options: dict[str, Any], summary: str,
               lines: list[str], key: str) -> ui.echart:
        with ui.card().classes("w-full chart-card").props(f'data-testid=chart-card-{name}'):
            ui.label(title).classes("text-lg font-medium").props('role=heading aria-level=2')
            chart = ui.echart(options).classes(f"w-full chart chart-{name}")
            set_props(chart, {"data-testid": f"chart-{name}", "role": "img",
                              "aria-label": summary})
            ui.label(key).classes("text-sm chart-key")
            with ui.element("ul").classes("chart-lines text-sm").props(
                    f'data-testid=chart-{name}-lines'):
                for line in lines:
                    with ui.element("li"):
                        ui.label(line)
        return chart

    def use_ink(self, ink: Ink) -> None:
        """Redraw both charts for the page's surface (the dark one, when the browser asks)."""
        drawn = [(self.race, race_options(self.game, ink)),
                 (self.luck, luck_options(self.game, ink))]
        if self.chances is not None:
            drawn.append((self.chances, chance_options(self.game, ink)))
        for chart, options in drawn:
            chart.options.clear()
            chart.options.update(options)
            chart.update()
