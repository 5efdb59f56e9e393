"""Game records: the dice commitment, the players' contributions, a game's starting
position, and which browsers took part in which games (My games).

Games stored before this revision keep ``secret`` and ``commitment`` empty: their dice
follow from ``seed`` alone and were never committed to, so their records say the dice
cannot be verified. ``start`` is empty for a game that begins at the opening position.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("secret", sa.String(64), nullable=False,
                                     server_default=""))
    op.add_column("games", sa.Column("commitment", sa.String(64), nullable=False,
                                     server_default=""))
    op.add_column("games", sa.Column("contributions", sa.Text(), nullable=False,
                                     server_default="{}"))
    op.add_column("games", sa.Column("start", sa.Text(), nullable=False, server_default=""))
    op.create_table(
        "players",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("browser", sa.String(64), primary_key=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_players_browser", "players", ["browser"])


def downgrade() -> None:
    op.drop_index("ix_players_browser", "players")
    op.drop_table("players")
    for name in ("start", "contributions", "commitment", "secret"):
        op.drop_column("games", name)
