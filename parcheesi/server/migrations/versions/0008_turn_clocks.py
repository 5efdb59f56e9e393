"""Turn clocks: the room's clock (seconds a move, 0 = off), and on games the clock they
were started with, the deadline of the move to make now and the timeouts in a row of each
seat; on actions, whether a computer made it because its player's time ran out.

Every room and game so far has no clock (0, no deadline, no timeouts), and every action so
far was its player's own.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("clock", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("games", sa.Column("clock", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("games", sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.add_column("games", sa.Column("timeouts", sa.Text(), nullable=False,
                                     server_default="{}"))
    op.create_index("ix_games_deadline", "games", ["deadline"])
    op.add_column("actions", sa.Column("timed_out", sa.Boolean(), nullable=False,
                                       server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("actions", "timed_out")
    op.drop_index("ix_games_deadline", "games")
    for name in ("timeouts", "deadline", "clock"):
        op.drop_column("games", name)
    op.drop_column("rooms", "clock")
