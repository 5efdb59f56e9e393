"""The rules of Ludo in the app's own words, with every house rule as the setup form words
it and a few tips: the game's rules page (``/rules/ludo``).

The text must agree with the engine and ``docs/rules/ludo.md``; the tests check its key
numbers.
"""

from .words import HOUSE_WORDS

_TEXT = """
## Goal
Be the first to bring all four of your pieces from your **yard** once round the board, up
your own **home lane** and into **HOME** in the centre. Two, three or four can play, in any
colours: Red, Green, Yellow and Blue take turns in that order, clockwise.

## Who starts
Everyone rolls the die once; the highest number starts. If several tie for the highest,
only they roll again.

## Your turn
Roll the one die and move **one** piece by exactly that number; you choose which. If no
piece can use the roll, your turn passes.

- A piece leaves the yard only with a **6**: it comes out onto your start square (the
  square in your colour) and that is the whole move.
- The track has 52 squares. After going round, a piece turns into your home lane (5
  squares, yours alone) and needs the **exact** number to reach HOME.

## Capturing
Any number of pieces may share a square, and passing over pieces does nothing. Landing on a
square where an opponent stands sends **one** of their pieces back to its yard; if pieces
of two opponents stand there, you choose whose. Coming out onto your start square captures
the same way. Your own start square protects **your** pieces only: an opponent standing on
it can be captured there. Pieces in a home lane cannot be reached.

## Rolling again
You roll again after moving a **6**, after a **capture** and after bringing a piece
**HOME**: once per move, even when it does two of these. A roll that no piece can use earns
nothing, a 6 included. The move that brings your fourth piece HOME ends your game.

## The end, and playing on
The first player with all four pieces HOME wins. With three or four players, the others are
then asked whether to **play on** for the next places: play goes on only if every person
still racing agrees (computers always do), until one player is left in last place.
Otherwise the game ends and the rest are placed by pieces HOME, then by how far their
pieces got. A game still running after 1,000 rolls ends there: a draw if nobody has
finished.

## House rules
The host may switch these on when setting up a game; the table shows the ones in play.

{house}

## Tips
- Bring pieces out early: a 6 is rare, and one piece alone is easy to chase.
- A piece one to six squares in front of an opponent can be captured next roll; behind
  it, it is the hunter. The **Hint** button weighs these threats for you.
- Pieces on your own start square are safe from everyone.
"""

RULES_TEXT = _TEXT.format(house="\n".join(f"- **{short}**: {what}."
                                          for short, what in HOUSE_WORDS.values()))
