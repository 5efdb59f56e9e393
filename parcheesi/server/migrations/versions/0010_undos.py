"""Undo at a table of one person and computers: the moves taken back so far, on each game.

With the version (the actions kept), it makes every change to a game, an undo too, give the
game a new number its tables send back with their actions (``LiveGame.version``). Every game
so far took nothing back.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("undos", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("games", "undos")
