"""The rules of classic Parcheesi in the app's own words, with a few tips: the game's rules
page (``/rules``).

The text must agree with the engine and ``docs/rules/parcheesi.md``; the tests check its key
numbers.
"""

RULES_TEXT = """
## Goal
Be the first to bring all four of your pieces from **START** around the board and into
**HOME** in the centre.

## Players and colours
Two, three or four players: **Ruby, Emerald, Sapphire and Amber**. With two players you sit
opposite each other (Ruby with Sapphire, or Emerald with Amber). Pieces travel
counterclockwise around the 68-square track, and turns pass in the same direction.

To decide who begins, everyone rolls both dice; the highest total starts. If several tie for
the highest total, only they roll again.

## Your turn
Roll both dice. Each die is a separate move (a *portion*) for one piece, always its full
count; you may give both to the same piece, in either order.

**Doubles** earn another roll after you have moved. If you roll doubles while **none** of
your pieces is in START, you move *four* portions: the two top faces and the two bottom
faces (a 3-3 moves 3, 3, 4 and 4, fourteen squares in all). Roll doubles **three times in a
row** and you move nothing: your piece closest to HOME (home lane included) goes back to
START and your turn ends.

## Entering
A piece leaves START onto your own entry square with a **5**, or with both dice when they
add up to five (1+4 or 2+3). With 5-5 two pieces can come out. Entering is compulsory
whenever you can. You cannot enter while two pieces (a blockade) stand on your entry
square. If a single opponent sits on your entry square when you enter, it is captured.

## Moving
- You may pass single pieces of any colour, even on safe squares.
- Nobody may pass or land on a **blockade**: two pieces of one colour on one square (your own
  included, in the home lane too). A square never holds more than two pieces.
- Landing on a single opponent piece on an ordinary square **captures** it: it goes back to
  its START. You cannot land on an opponent standing on one of the **12 safe squares**
  (the coloured entry squares and the squares marked with a star).
- Your home lane is yours alone. HOME needs the exact count.

## Using the whole roll
You must use as much of the roll as the rules allow: enter as many pieces as you can, then
use both dice if any way of playing uses both. If only one die can be used, you may choose
which. With four portions, you must use all four if there is any way to do so; otherwise you
move nothing at all for that roll (the doubles still give you another roll). Sometimes this
forces you to break up your own blockade.

Two pieces that formed a blockade when your turn began may not move together to form a
blockade on another square during that turn (both reaching HOME is fine).

## Bonuses
Each capture earns a **20**-square bonus and each piece reaching HOME earns a **10**-square
bonus, taken after the dice, each by one piece in one go. A bonus that captures or reaches
HOME earns another bonus. A bonus that no piece can use in full is lost. Pieces in START
cannot take a bonus.

## Winning
The first player with all four pieces HOME wins at once.

**Playing on** (a table option, with three or four players): when the winner's last piece
reaches HOME, the table asks the players still racing, one at a time, whether to play on
for the next places. If everyone agrees (computers always do), the game goes on from the
next player after the winner, skipping anyone who has finished; each player who finishes
next takes the next place, and the question is asked again while two or more are still
racing, until one is left in last place. If anyone says no, the game ends there and the
others are placed by pieces HOME, then by how far their pieces have come; equal players
share a place.

## Tips
- Safe squares and blockades protect you; a lone piece a few squares in front of an
  opponent is at risk (the **Hint** button shows the safest strong move).
- A blockade just in front of an opponent's pieces slows them down, but remember you may
  not move the pair together this turn.
- Bonuses of 20 can carry a piece a long way: captures early in the game pay twice.
- Do not rush every piece out alone: a piece waiting in START is safe, a piece on the track
  can be sent back.
"""
