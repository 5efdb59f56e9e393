"""The people of the house: who plays, kept by the server, and the browsers that are them.

A person is a name and an avatar (an emoji, or their initials on a colour). A browser is
its person through a secret token it keeps (only its SHA-256 is stored, as with seat
tokens): a forged or stale token finds nobody and gets nothing. A second device becomes the
same person through a one-time link made on the first (kept as a hash too, good for
:data:`LINK_MINUTES`, gone once used). Guest is nobody in particular: a seat of a guest is
credited to no person and never rated.

Computers are people too, one per game and level ("Hard computer"), so their rows on the
leaderboard show what a level plays like; they are made on first need and never chosen by a
browser.

The host renames, merges (one child on two phones: the games and devices of one go to the
other) and removes people (their games stay, with the name they were played under); the
ratings are then worked out again (:mod:`.ratings`). The list is bounded: the host's cap, by
default :data:`PEOPLE_LIMIT`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import update
from sqlmodel import Field, SQLModel, col, select

from .live import NAME_LENGTH
from .store import Store, aware


def _now() -> datetime:
    return datetime.now(UTC)


GUEST = ""
"""The person id of a guest: nobody in particular."""
GUEST_NAME = "Guest"
PEOPLE_LIMIT = 50
"""People the server keeps at most unless the host sets another cap."""
MAX_LIMIT = 500
"""The highest cap the host may set."""
LINK_MINUTES = 10
"""How long a link for a second device works."""
AVATAR_COLOURS = ("#b3261e", "#2e7d32", "#1565c0", "#8d5d00", "#6a1b9a", "#00695c",
                  "#ad1457", "#4e342e")
"""The colours initials are drawn on, one per person by turn (all dark enough for white
letters)."""
EMOJI_LENGTH = 8
"""Characters an avatar's emoji may have (a flag or a family is several code points)."""
COMPUTER_EMOJI = "🤖"
LIMIT_KEY = "people_limit"


class PersonRow(SQLModel, table=True):
    __tablename__ = "people"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=NAME_LENGTH)
    emoji: str = Field(default="", max_length=EMOJI_LENGTH)
    """The avatar's emoji ("" for the initials)."""
    colour: str = Field(default=AVATAR_COLOURS[0], max_length=7)
    """The avatar's colour."""
    computer: str = Field(default="", index=True, max_length=40)
    """``<game>:<level>`` for a computer, "" for a person."""
    merged_into: str | None = Field(default=None, max_length=32)
    """The person this one became (a merge); their games count for that one."""
    removed: bool = False
    created_at: datetime = Field(default_factory=_now)


class DeviceRow(SQLModel, table=True):
    """A browser that is a person: the hash of the token it keeps."""

    __tablename__ = "person_devices"

    token_hash: str = Field(primary_key=True, max_length=64)
    person_id: str = Field(index=True, max_length=32)
    created_at: datetime = Field(default_factory=_now)


class LinkRow(SQLModel, table=True):
    """A one-time link that makes another device the same person."""

    __tablename__ = "person_links"

    code_hash: str = Field(primary_key=True, max_length=64)
    person_id: str = Field(max_length=32)
    expires_at: datetime


class SettingRow(SQLModel, table=True):
    """A setting the host changes while the server runs (the people cap)."""

    __tablename__ = "server_settings"

    key: str = Field(primary_key=True, max_length=40)
    value: str = Field(max_length=200)


class PersonError(ValueError):
    """A change to the people that cannot be made; the message says why, fit to show."""


@dataclass(frozen=True)
class Person:
    id: str
    name: str
    emoji: str = ""
    colour: str = AVATAR_COLOURS[0]
    computer: str = ""

    @property
    def is_computer(self) -> bool:
        return bool(self.computer)

    @property
    def initials(self) -> str:
        """What the avatar shows without an emoji: the first letters of two words."""
        words = self.name.split()
        return "".join(word[0] for word in words[:2]).upper() or "?"

    @classmethod
    def of(cls, row: PersonRow) -> Person:
        return cls(row.id, row.name, row.emoji, row.colour, row.computer)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def clean_name(text: object) -> str:
    """A person's name as given: trimmed, 1 to :data:`NAME_LENGTH` characters, no control
    characters; PersonError otherwise."""
    if not isinstance(text, str):
        raise PersonError("A name is text.")
    name = " ".join(text.split())
    if not name:
        raise PersonError("Please type a name.")
    if len(name) > NAME_LENGTH:
        raise PersonError(f"A name has at most {NAME_LENGTH} characters.")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise PersonError("A name cannot hold control characters.")
    if name.casefold() == GUEST_NAME.casefold():
        raise PersonError("Guest is always there; please choose another name.")
    return name


def clean_emoji(text: object) -> str:
    """An avatar's emoji: "" (initials) or a short run of symbols (no letters, digits or
    control characters)."""
    if text in (None, ""):
        return ""
    if not isinstance(text, str) or len(text) > EMOJI_LENGTH or any(
            unicodedata.category(ch)[0] in "LNCZ" and ch not in "\u200d\ufe0f"
            for ch in text):
        raise PersonError("An avatar is one emoji, or nothing for the initials.")
    return text


def computer_key(kind: str, level: str) -> str:
    return f"{kind}:{level}"


class People:
    """The people kept by one server's store."""

    def __init__(self, store: Store, wall: Callable[[], datetime] = _now) -> None:
        self.store = store
        self.wall = wall
        self.on_change: list[Callable[[], Awaitable[object]]] = []
        """Awaited after a merge or a removal (the ratings are worked out again), so the
        host's page shows the new numbers as soon as the change returns."""

    # --- reading ------------------------------------------------------------------------------

    async def everyone(self, computers: bool = False) -> list[Person]:
        """The people a browser may be (and, with ``computers``, the computers), by name."""
        async with self.store.session() as session:
            query = select(PersonRow).where(col(PersonRow.removed).is_(False),
                                            col(PersonRow.merged_into).is_(None))
            if not computers:
                query = query.where(col(PersonRow.computer) == "")
            rows = (await session.exec(query)).all()
        return sorted((Person.of(r) for r in rows), key=lambda p: (p.is_computer,
                                                                  p.name.casefold()))

    async def get(self, person_id: object) -> Person | None:
        """The person ``person_id`` is now (after merges), None when removed or unknown."""
        if not isinstance(person_id, str) or not person_id or len(person_id) > 32:
            return None
        async with self.store.session() as session:
            for _ in range(MAX_LIMIT):  # a merge chain is short; never loop forever
                row = await session.get(PersonRow, person_id)
                if row is None or row.removed:
                    return None
                if row.merged_into is None:
                    return Person.of(row)
                person_id = row.merged_into
        return None

    async def of_token(self, token: object) -> Person | None:
        """The person whose device keeps ``token``; None for a forged, stale or missing one
        (a person removed, a token never given)."""
        if not isinstance(token, str) or not 16 <= len(token) <= 128:
            return None
        async with self.store.session() as session:
            row = await session.get(DeviceRow, digest(token))
        if row is None or not hmac.compare_digest(row.token_hash, digest(token)):
            return None
        return await self.get(row.person_id)

    async def limit(self) -> int:
        async with self.store.session() as session:
            row = await session.get(SettingRow, LIMIT_KEY)
        return int(row.value) if row is not None else PEOPLE_LIMIT

    # --- a browser becomes a person -----------------------------------------------------------

    async def add(self, name: object, emoji: object = "") -> tuple[Person, str]:
        """A new person, and the token of the device that added them (this device is
        them now)."""
        clean, face = clean_name(name), clean_emoji(emoji)
        people = await self.everyone()
        if any(p.name.casefold() == clean.casefold() for p in people):
            raise PersonError(f"{clean} is already here: pick them instead.")
        if len(people) >= await self.limit():
            raise PersonError("The list of people is full; the host can make room.")
        row = PersonRow(id=uuid.uuid4().hex, name=clean, emoji=face,
                        colour=AVATAR_COLOURS[len(people) % len(AVATAR_COLOURS)])
        token = secrets.token_urlsafe(32)
        async with self.store.write_session() as session:
            session.add(row)
            session.add(DeviceRow(token_hash=digest(token), person_id=row.id))
            await session.commit()
        return Person.of(row), token

    async def choose(self, person_id: object) -> tuple[Person, str]:
        """This device is ``person_id`` from now on: the token it is to keep."""
        person = await self.get(person_id)
        if person is None or person.is_computer:
            raise PersonError("That person is not here any more.")
        return person, await self._new_device(person.id)

    async def link(self, person_id: str) -> str:
        """A one-time code another device opens to become ``person_id``."""
        person = await self.get(person_id)
        if person is None or person.is_computer:
            raise PersonError("That person is not here any more.")
        code = secrets.token_urlsafe(18)
        expires = self.wall() + timedelta(minutes=LINK_MINUTES)
        async with self.store.write_session() as session:
            session.add(LinkRow(code_hash=digest(code), person_id=person.id,
                                expires_at=expires))
            await session.commit()
        return code

    async def redeem(self, code: object) -> tuple[Person, str]:
        """Open a link: the person it names and this device's token; the link is used up
        (also when it had run out). PersonError for an unknown, used or old link."""
        if not isinstance(code, str) or not 8 <= len(code) <= 64:
            raise PersonError("That link does not work (it is wrong, used or too old).")
        async with self.store.write_session() as session:
            row = await session.get(LinkRow, digest(code))
            if row is not None:
                await session.delete(row)
                await session.commit()
        person = None
        if row is not None and aware(row.expires_at) > self.wall():
            person = await self.get(row.person_id)
        if person is None:
            raise PersonError("That link does not work (it is wrong, used or too old).")
        return person, await self._new_device(person.id)

    async def _new_device(self, person_id: str) -> str:
        token = secrets.token_urlsafe(32)
        async with self.store.write_session() as session:
            session.add(DeviceRow(token_hash=digest(token), person_id=person_id))
            await session.commit()
        return token

    # --- computers ----------------------------------------------------------------------------

    async def computer(self, kind: str, level: str) -> Person:
        """The computer person of ``kind``'s ``level`` (made on first need)."""
        key = computer_key(kind, level)
        async with self.store.session() as session:
            row = (await session.exec(select(PersonRow).where(
                col(PersonRow.computer) == key))).first()
        if row is not None:
            return Person.of(row)
        row = PersonRow(id=uuid.uuid5(uuid.NAMESPACE_URL, f"computer:{key}").hex,
                        name=f"{level.title()} computer", emoji=COMPUTER_EMOJI,
                        colour="#455a64", computer=key)
        await self.store.add_once(row)
        return Person.of(row)

    # --- the host -----------------------------------------------------------------------------

    async def rename(self, person_id: str, name: object, emoji: object = None) -> Person:
        person = await self._person(person_id)
        clean = clean_name(name)
        if any(p.name.casefold() == clean.casefold() and p.id != person.id
               for p in await self.everyone()):
            raise PersonError(f"Someone is already called {clean}.")
        values: dict[str, str] = {"name": clean}
        if emoji is not None:
            values["emoji"] = clean_emoji(emoji)
        await self._update(person.id, **values)
        return await self._person(person.id)

    async def merge(self, person_id: str, into_id: str) -> None:
        """``person_id`` is ``into_id`` (the same child on two phones): their devices and
        games count for ``into_id`` from now on."""
        person, into = await self._person(person_id), await self._person(into_id)
        if person.id == into.id:
            raise PersonError("Pick two different people to merge.")
        async with self.store.write_session() as session:
            await session.exec(update(PersonRow).where(col(PersonRow.id) == person.id)
                               .values(merged_into=into.id))
            await session.exec(update(DeviceRow).where(col(DeviceRow.person_id) == person.id)
                               .values(person_id=into.id))
            await session.commit()
        await self._changed()

    async def remove(self, person_id: str) -> None:
        """The person leaves the list; their games stay, with the name they played under,
        and count for nobody; their devices are nobody."""
        person = await self._person(person_id)
        async with self.store.write_session() as session:
            await session.exec(update(PersonRow).where(col(PersonRow.id) == person.id)
                               .values(removed=True))
            rows = (await session.exec(select(DeviceRow).where(
                col(DeviceRow.person_id) == person.id))).all()
            for row in rows:
                await session.delete(row)
            await session.commit()
        await self._changed()

    async def set_limit(self, limit: object) -> int:
        """The host's cap on the list (never below the people already on it)."""
        if type(limit) is not int or not 1 <= limit <= MAX_LIMIT:
            raise PersonError(f"The cap is a number from 1 to {MAX_LIMIT}.")
        if limit < len(await self.everyone()):
            raise PersonError("There are more people than that already.")
        async with self.store.write_session() as session:
            row = await session.get(SettingRow, LIMIT_KEY)
            if row is None:
                session.add(SettingRow(key=LIMIT_KEY, value=str(limit)))
            else:
                row.value = str(limit)
                session.add(row)
            await session.commit()
        return limit

    async def _person(self, person_id: str) -> Person:
        person = await self.get(person_id)
        if person is None or person.is_computer:
            raise PersonError("That person is not here any more.")
        return person

    async def _update(self, person_id: str, **values: str) -> None:
        async with self.store.write_session() as session:
            await session.exec(update(PersonRow).where(col(PersonRow.id) == person_id)
                               .values(**values))
            await session.commit()

    async def _changed(self) -> None:
        for listener in self.on_change:
            await listener()
