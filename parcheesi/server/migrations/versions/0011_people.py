"""People, their devices and one-time links, the host's settings, and the ratings' results.

Games already finished get the time they finished from their last change, so the ratings
can order them. Their seats name no person: a person's seat of those games counts for Guest
(a typed name is not a person), a computer's for that game's computer of its level; the
server rates them all at its next start.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("games", sa.Column("finished_at", _WHEN, nullable=True))
    op.create_index("ix_games_finished_at", "games", ["finished_at"])
    op.execute("UPDATE games SET finished_at = updated_at WHERE finished")
    op.create_table(
        "people",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("emoji", sa.String(8), nullable=False, server_default=""),
        sa.Column("colour", sa.String(7), nullable=False),
        sa.Column("computer", sa.String(40), nullable=False, server_default=""),
        sa.Column("merged_into", sa.String(32), nullable=True),
        sa.Column("removed", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.create_index("ix_people_computer", "people", ["computer"])
    op.create_table(
        "person_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("person_id", sa.String(32), nullable=False),
        sa.Column("created_at", _WHEN, nullable=False),
    )
    op.create_index("ix_person_devices_person_id", "person_devices", ["person_id"])
    op.create_table(
        "person_links",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("person_id", sa.String(32), nullable=False),
        sa.Column("expires_at", _WHEN, nullable=False),
    )
    op.create_table(
        "server_settings",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    op.create_table(
        "finishes",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("finished_at", _WHEN, nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("person_id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("colour", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("captures", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("captured", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("finished_at", _WHEN, nullable=False),
    )
    op.create_index("ix_results_person_id", "results", ["person_id"])


def downgrade() -> None:
    op.drop_index("ix_results_person_id", "results")
    for table in ("results", "finishes", "server_settings", "person_links"):
        op.drop_table(table)
    op.drop_index("ix_person_devices_person_id", "person_devices")
    op.drop_table("person_devices")
    op.drop_index("ix_people_computer", "people")
    op.drop_table("people")
    op.drop_index("ix_games_finished_at", "games")
    op.drop_column("games", "finished_at")
