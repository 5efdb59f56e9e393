"""Room game kinds: which game a room's tables play (every room so far plays Parcheesi).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("kind", sa.String(16), nullable=False,
                                     server_default="parcheesi"))


def downgrade() -> None:
    op.drop_column("rooms", "kind")
