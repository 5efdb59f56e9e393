"""Tournaments, and the tournament a room is a table of.

Every room so far is an ordinary one (no tournament).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("rooms", sa.Column("tournament", sa.String(8), nullable=False,
                                     server_default=""))
    op.create_table(
        "tournaments",
        sa.Column("code", sa.String(8), primary_key=True),
        sa.Column("host", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("house", sa.String(120), nullable=False, server_default=""),
        sa.Column("clock", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("stand_in", sa.String(16), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("rooms", sa.Text(), nullable=False, server_default="[]"),
        sa.Column("names", sa.Text(), nullable=False, server_default="{}"),
        sa.Column("withdrawn", sa.Text(), nullable=False, server_default="[]"),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("finished", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", _WHEN, nullable=False),
        sa.Column("updated_at", _WHEN, nullable=False),
    )
    op.create_index("ix_tournaments_finished", "tournaments", ["finished"])


def downgrade() -> None:
    op.drop_index("ix_tournaments_finished", "tournaments")
    op.drop_table("tournaments")
    op.drop_column("rooms", "tournament")
