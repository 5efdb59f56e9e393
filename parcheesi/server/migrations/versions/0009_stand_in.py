"""The stand-in: the computer level a room's host chose to move for a player whose time runs
out (or who hands their seat to a computer for a while), on the room and on its games.

Every room and game so far used the medium computer for that.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("rooms", "games"):
        op.add_column(table, sa.Column("stand_in", sa.String(length=16), nullable=False,
                                       server_default="medium"))


def downgrade() -> None:
    for table in ("rooms", "games"):
        op.drop_column(table, "stand_in")
