"""House rules: the options a game was set up with (Ludo's five), on games and rooms.

Every game and room so far has none. Stored as the sorted names joined by commas.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("games", "rooms"):
        op.add_column(table, sa.Column("house", sa.String(120), nullable=False,
                                       server_default=""))


def downgrade() -> None:
    for table in ("games", "rooms"):
        op.drop_column(table, "house")
