"""Alembic migrations of the database schema (applied on start, or by ``migrate``)."""
