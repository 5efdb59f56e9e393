"""The race's rules page (``/rules/race``), in Markdown; it must agree with the turn
machine."""

RULES_TEXT = """
## Goal
Be the first to bring all four of your pieces from **START** up your own lane of **12**
squares and into **HOME**. Two, three or four can play, in any colours: Violet, Teal,
Orange and Grey take turns in that order.

## Who starts
Everyone rolls the die once; the highest number starts. If several tie for the highest,
only they roll again.

## Your turn
Roll the one die and move **one** piece by exactly that number; you choose which. A
waiting piece comes in with any roll: a 1 puts it on the first square. A piece needs the
**exact** number to reach HOME. If no piece can use the roll, your turn passes. Lanes
never meet, so nobody is ever captured.

## The end, and playing on
The first player with all four pieces HOME wins. With three or four players, the others
are then asked whether to **play on** for the next places: play goes on only if every
person still racing agrees (computers always do). Otherwise the game ends and the rest are
placed by pieces HOME, then by how far their pieces got.
"""
