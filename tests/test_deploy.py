"""The self-hosting files in ``deploy/`` and the guide ``docs/hosting.md``.

No container engine, init system or proxy runs here, so these tests check what can be checked
without one: the compose file parses and wires the app to a healthy PostgreSQL, the container
file builds from files that exist (and leaves the rest of the repository out of the build
context), the systemd unit parses and passes ``systemd-analyze verify`` (when that tool is
installed), and the Caddyfile proxies to the server's port.
"""

from __future__ import annotations

import configparser
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from sqlalchemy.engine import make_url

from parcheesi.server.config import parse

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
CONTAINERFILE = DEPLOY / "Containerfile"
IGNORE_FILE = DEPLOY / "Containerfile.dockerignore"
UNIT = DEPLOY / "parcheesi.service"
CADDYFILE = DEPLOY / "Caddyfile"
COMPOSE = DEPLOY / "compose.yaml"
GUIDE = ROOT / "docs" / "hosting.md"

CHECKOUT = "/opt/parcheesi"
"""Where the systemd unit expects the checkout (docs/hosting.md)."""


@pytest.fixture
def default_port(tmp_path: Path) -> int:
    """The server's port when none is configured."""
    environ = {"PARCHEESI_STORAGE_SECRET": "test",
               "PARCHEESI_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"}
    return parse([], environ=environ, root=tmp_path).port


# --- compose ------------------------------------------------------------------------------

VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[?\-+][^}]*)?\}")


def interpolate(value: str, values: dict[str, str]) -> str:
    """Compose's ``${NAME}`` / ``${NAME:?message}`` interpolation, from ``values``."""
    return VARIABLE.sub(lambda match: values[match.group(1)], value)


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def environment(service: dict) -> dict[str, str]:
    env = service.get("environment", {})
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {key: str(value) for key, value in env.items()}


def mounts(service: dict) -> dict[str, str]:
    """Container path -> source of each volume in short syntax."""
    found = {}
    for item in service.get("volumes", []):
        source, target = item.split(":")[:2]
        found[target] = source
    return found


def test_compose_has_app_and_postgres_16(compose: dict) -> None:
    services = compose["services"]
    assert set(services) == {"app", "db"}
    assert services["db"]["image"].split(":")[0] == "postgres"
    assert services["db"]["image"].split(":")[1].split(".")[0] == "16"
    for name, service in services.items():
        assert service.get("restart") in ("always", "unless-stopped", "on-failure"), name


def test_compose_keeps_data_in_named_volumes(compose: dict) -> None:
    services = compose["services"]
    declared = set(compose.get("volumes") or {})
    db_data = mounts(services["db"])["/var/lib/postgresql/data"]
    app_data = mounts(services["app"])["/data"]
    for source in (db_data, app_data):
        assert not source.startswith((".", "/", "~")), f"{source} is a bind mount"
        assert source in declared
    assert db_data != app_data
    assert environment(services["app"])["PARCHEESI_DATA_DIR"] == "/data"


def test_compose_checks_postgres_health_and_waits_for_it(compose: dict) -> None:
    db, app = compose["services"]["db"], compose["services"]["app"]
    test = db["healthcheck"]["test"]
    command = test if isinstance(test, str) else " ".join(test[1:])
    assert "pg_isready" in command
    env = environment(db)
    assert f"-U {env['POSTGRES_USER']}" in command
    assert f"-d {env['POSTGRES_DB']}" in command
    assert db["healthcheck"].get("retries", 0) >= 1
    assert app["depends_on"]["db"]["condition"] == "service_healthy"


def test_compose_database_url_reaches_the_db_service_with_psycopg(
        compose: dict, tmp_path: Path) -> None:
    db, app = compose["services"]["db"], compose["services"]["app"]
    db_env, app_env = environment(db), environment(app)
    secrets = {"POSTGRES_PASSWORD": "0123abcd"}
    raw = app_env["PARCHEESI_DATABASE_URL"]
    assert raw.startswith("postgresql+psycopg://")
    # The password comes from the env file, in the app's URL and the database alike.
    assert "${POSTGRES_PASSWORD" in raw
    assert db_env["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD")
    url = interpolate(raw, secrets)
    parts = urlsplit(url)
    assert parts.hostname == "db" and "db" in compose["services"]
    assert parts.port in (None, 5432)
    assert parts.username == db_env["POSTGRES_USER"]
    assert parts.password == interpolate(db_env["POSTGRES_PASSWORD"], secrets)
    assert parts.path == f"/{db_env['POSTGRES_DB']}"
    assert make_url(url).drivername == "postgresql+psycopg"
    # ... and the server accepts it as its database setting.
    config = parse([], environ={"PARCHEESI_DATABASE_URL": url,
                                "PARCHEESI_STORAGE_SECRET": "test",
                                "PARCHEESI_DATA_DIR": str(tmp_path)}, root=tmp_path)
    assert config.database_url == url


def test_compose_takes_secrets_from_an_env_file(compose: dict) -> None:
    app = compose["services"]["app"]
    env_files = app["env_file"] if isinstance(app["env_file"], list) else [app["env_file"]]
    assert env_files
    assert all(Path(name).name == ".env" for name in env_files)
    assert "PARCHEESI_STORAGE_SECRET" not in environment(app), "secret written in compose"


def test_compose_builds_this_containerfile_and_publishes_the_port(
        compose: dict, default_port: int) -> None:
    app = compose["services"]["app"]
    context = (COMPOSE.parent / app["build"]["context"]).resolve()
    assert context == ROOT
    assert (context / app["build"]["dockerfile"]).resolve() == CONTAINERFILE
    published = [str(item).split(":")[-2:] for item in app["ports"]]
    assert [str(default_port), str(default_port)] in published


# --- container file -----------------------------------------------------------------------

def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with line continuations joined and comments dropped."""
    found: list[tuple[str, str]] = []
    pending = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        logical = pending + stripped
        pending = ""
        keyword, _, rest = logical.partition(" ")
        found.append((keyword.upper(), rest.strip()))
    assert not pending, "the file ends in a line continuation"
    return found


@pytest.fixture(scope="module")
def steps() -> list[tuple[str, str]]:
    return instructions(CONTAINERFILE.read_text())


def values(steps: list[tuple[str, str]], keyword: str) -> list[str]:
    return [rest for key, rest in steps if key == keyword]


def copy_sources(rest: str) -> list[str]:
    if rest.startswith("["):
        args = json.loads(rest)
    else:
        args = [arg for arg in rest.split() if not arg.startswith("--")]
    assert len(args) >= 2, rest
    return args[:-1]


def env_settings(steps: list[tuple[str, str]]) -> dict[str, str]:
    settings = {}
    for rest in values(steps, "ENV"):
        for item in rest.split():
            key, _, value = item.partition("=")
            settings[key] = value
    return settings


def ignore_patterns() -> list[str]:
    lines = (line.strip() for line in IGNORE_FILE.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    out = ""
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            out, index = out + "(?:.*/)?", index + 3
        elif pattern.startswith("**", index):
            out, index = out + ".*", index + 2
        elif pattern[index] == "*":
            out, index = out + "[^/]*", index + 1
        elif pattern[index] == "?":
            out, index = out + "[^/]", index + 1
        elif pattern[index] == "[":
            end = pattern.index("]", index)
            out, index = out + pattern[index:end + 1], end + 1
        else:
            out, index = out + re.escape(pattern[index]), index + 1
    return re.compile(out + r"\Z")


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether the build context leaves ``path`` out (.dockerignore rules, last match wins)."""
    parts = path.strip("/").split("/")
    result = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        regex = _pattern_regex(pattern.lstrip("!").strip("/"))
        if any(regex.match("/".join(parts[:end])) for end in range(1, len(parts) + 1)):
            result = not negate
    return result


def test_containerfile_has_the_required_instructions(
        steps: list[tuple[str, str]], default_port: int) -> None:
    assert steps[0][0] == "FROM"
    assert steps[0][1].startswith("python:3.11-slim")
    users = values(steps, "USER")
    assert users, "the image must not run as root"
    assert users[-1].split(":")[0] not in ("root", "0")
    assert [key for key, _ in steps].index("USER") < [key for key, _ in steps].index("CMD")
    assert str(default_port) in " ".join(values(steps, "EXPOSE")).split()
    assert json.loads(values(steps, "CMD")[-1]) == ["python", "app.py"]


def test_containerfile_health_check_uses_the_health_endpoint(steps: list) -> None:
    (check,) = values(steps, "HEALTHCHECK")
    command = json.loads(check[check.index("CMD") + len("CMD"):].strip())
    assert command[:2] == ["python", "-c"]
    code = command[2]
    assert "urllib.request" in code and "/health" in code
    compile(code, "<healthcheck>", "exec")
    assert "curl" not in check and "wget" not in check


def test_containerfile_keeps_data_in_the_volume(steps: list) -> None:
    settings = env_settings(steps)
    assert settings["PARCHEESI_DATA_DIR"] == "/data"
    assert settings["NICEGUI_STORAGE_PATH"].startswith("/data/")
    volumes = " ".join(values(steps, "VOLUME"))
    assert "/data" in (json.loads(volumes) if volumes.startswith("[") else volumes.split())


def test_containerfile_copies_files_that_exist_and_are_in_the_context(steps: list) -> None:
    patterns = ignore_patterns()
    sources = [source for rest in values(steps, "COPY") for source in copy_sources(rest)]
    assert sources
    for source in sources:
        assert source not in (".", "./"), "copy named files, not the whole context"
        assert (ROOT / source).exists(), f"COPY {source}: no such file in the repository"
        assert not ignored(source, patterns), f"COPY {source}: excluded by {IGNORE_FILE.name}"


def test_containerfile_installs_the_project_without_test_extras(steps: list) -> None:
    position = next(index for index, (key, rest) in enumerate(steps)
                    if key == "RUN" and "pip install" in rest)
    install = steps[position][1]
    assert re.search(r"pip install (--\S+ )*\.(\s|$)", install), install
    assert "[" not in install.split("pip install", 1)[1].split("&&")[0]
    before = {source.rstrip("/") for key, rest in steps[:position] if key == "COPY"
              for source in copy_sources(rest)}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    needed = {"pyproject.toml", project["project"]["readme"]}
    needed |= {pattern.split(".")[0].rstrip("*")
               for pattern in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert needed <= before, f"copy {sorted(needed - before)} before pip install"
    copied = {source.rstrip("/") for rest in values(steps, "COPY")
              for source in copy_sources(rest)}
    assert "app.py" in copied


def test_every_repository_entry_is_copied_or_left_out_of_the_context(steps: list) -> None:
    """A new top-level file or folder must be copied into the image or excluded on purpose."""
    patterns = ignore_patterns()
    for secret in ("data", ".venv", ".git", ".env", "deploy/.env"):
        assert ignored(secret, patterns), f"{secret} would be sent to the builder"
    copied = {source.strip("/").split("/")[0] for rest in values(steps, "COPY")
              for source in copy_sources(rest)}
    if shutil.which("git") and (ROOT / ".git").exists():
        listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout.split()
        entries = {path.split("/")[0] for path in listed}
    else:
        entries = {path.name for path in ROOT.iterdir()}
    unaccounted = sorted(entry for entry in entries
                         if entry not in copied and not ignored(entry, patterns))
    assert not unaccounted, (f"{unaccounted}: add a COPY to deploy/Containerfile or a line to "
                             f"{IGNORE_FILE.relative_to(ROOT)}")


def test_ignore_rules_behave_like_dockerignore() -> None:
    patterns = ["**/__pycache__", "*.egg-info", "data", "docs", "!docs/keep.md"]
    assert ignored("parcheesi/__pycache__/x.pyc", patterns)
    assert ignored("__pycache__", patterns)
    assert ignored("parcheesi.egg-info", patterns)
    assert ignored("data/parcheesi.sqlite3", patterns)
    assert ignored("docs/hosting.md", patterns)
    assert not ignored("docs/keep.md", patterns)
    assert not ignored("parcheesi/server/store.py", patterns)
    assert not ignored("database", patterns)


# --- systemd unit -------------------------------------------------------------------------

def read_unit(text: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    unit.read_string(text)
    return unit


def is_true(value: str) -> bool:
    return value.strip().lower() in ("yes", "true", "1", "on")


def test_unit_has_the_required_settings() -> None:
    unit = read_unit(UNIT.read_text())
    assert {"Unit", "Service", "Install"} <= set(unit.sections())
    service = unit["Service"]
    assert service["ExecStart"] == f"{CHECKOUT}/.venv/bin/python {CHECKOUT}/app.py"
    assert service["WorkingDirectory"] == CHECKOUT
    assert service["EnvironmentFile"] == "-/etc/parcheesi.env"
    assert service["Restart"] == "on-failure"
    assert service["User"] not in ("", "root", "0")
    assert is_true(service["NoNewPrivileges"])
    assert service["ProtectSystem"] == "strict"
    assert is_true(service["PrivateTmp"])
    assert is_true(service["ProtectHome"]) or service["ProtectHome"] in ("read-only", "tmpfs")
    assert "multi-user.target" in unit["Install"]["WantedBy"].split()
    if "RestrictAddressFamilies" in service:  # ifaddr lists addresses through netlink
        assert "AF_NETLINK" in service["RestrictAddressFamilies"].split()


def test_unit_lets_the_server_write_only_its_data_directory() -> None:
    service = read_unit(UNIT.read_text())["Service"]
    writable = [path.lstrip("-") for path in service["ReadWritePaths"].split()]
    settings = dict(item.split("=", 1) for item in service["Environment"].split())
    for name in ("PARCHEESI_DATA_DIR", "NICEGUI_STORAGE_PATH"):
        path = settings[name]
        assert any(path == root or path.startswith(root.rstrip("/") + "/")
                   for root in writable), f"{name}={path} is read-only under ProtectSystem"
    assert settings["PARCHEESI_DATA_DIR"].startswith(CHECKOUT + "/")


def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed (Debian package systemd)")
    # The real paths do not exist here: verify a copy whose checkout is a temporary folder
    # with an executable python and app.py, so that only the unit's own content is judged.
    checkout = tmp_path / "checkout"
    (checkout / ".venv" / "bin").mkdir(parents=True)
    (checkout / "data").mkdir()
    (checkout / ".venv" / "bin" / "python").symlink_to(sys.executable)
    (checkout / "app.py").write_text("")
    text = UNIT.read_text().replace(CHECKOUT, str(checkout))

    def verify(name: str, content: str) -> str:
        path = tmp_path / name
        path.write_text(content)
        result = subprocess.run([tool, "verify", str(path)], capture_output=True, text=True,
                                timeout=60, check=False)
        output = result.stdout + result.stderr
        assert result.returncode == 0 or name.startswith("broken"), output
        return "\n".join(line for line in output.splitlines() if name in line)

    assert verify("parcheesi.service", text) == ""
    # The check can fail: systemd-analyze reports a bad value and an unknown key.
    broken = text.replace("ProtectSystem=strict", "ProtectSystem=stricter\nNoSuchKey=1")
    complaints = verify("broken-parcheesi.service", broken)
    assert "ProtectSystem" in complaints or "stricter" in complaints
    assert "NoSuchKey" in complaints


# --- Caddy --------------------------------------------------------------------------------

def caddy_blocks(text: str, commented: bool = False) -> dict[str, list[str]]:
    """Site address -> directive lines of each top-level block (optionally the commented ones)."""
    blocks: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            if not commented:
                continue
            stripped = stripped.lstrip("#").strip()
        elif commented:
            continue
        if stripped.endswith("{") and current is None:
            current = stripped[:-1].strip()
            blocks[current] = []
        elif stripped == "}":
            current = None
        elif current is not None and stripped:
            blocks[current].append(stripped)
    return blocks


def test_caddyfile_proxies_the_domain_to_the_server(default_port: int) -> None:
    blocks = caddy_blocks(CADDYFILE.read_text())
    assert "parcheesi.example.org" in blocks
    directives = blocks["parcheesi.example.org"]
    assert f"reverse_proxy 127.0.0.1:{default_port}" in directives
    assert not any(line.startswith("tls off") for line in directives)


def test_caddyfile_has_a_commented_lan_variant(default_port: int) -> None:
    blocks = caddy_blocks(CADDYFILE.read_text(), commented=True)
    lan = [site for site in blocks if site.startswith((":", "http://"))]
    assert lan, "the LAN-only http variant is missing"
    assert f"reverse_proxy 127.0.0.1:{default_port}" in blocks[lan[0]]


def test_caddy_adapts_the_caddyfile(default_port: int) -> None:
    tool = shutil.which("caddy")
    if tool is None:
        pytest.skip("caddy is not installed (Debian package caddy)")
    result = subprocess.run([tool, "adapt", "--config", str(CADDYFILE), "--adapter",
                             "caddyfile"], capture_output=True, text=True, timeout=60,
                            check=False)
    assert result.returncode == 0, result.stderr
    config = json.loads(result.stdout)
    routes = [route for server in config["apps"]["http"]["servers"].values()
              for route in server["routes"]]
    text = json.dumps(routes)
    assert "parcheesi.example.org" in text
    assert f'"dial": "127.0.0.1:{default_port}"' in text


# --- the guide ----------------------------------------------------------------------------

def test_guide_documents_every_setting(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse(["--help"])
    flags = set(re.findall(r"--[a-z][a-z-]+", capsys.readouterr().out)) - {"--help"}
    config = ROOT / "parcheesi" / "server" / "config.py"
    names = set(re.findall(r"PARCHEESI_[A-Z_]+", config.read_text()))
    guide = GUIDE.read_text()
    table = "\n".join(line for line in guide.splitlines() if line.startswith("|"))
    assert flags and names
    for item in sorted(flags | names):
        assert f"`{item}`" in table, f"{item} is missing from the table in docs/hosting.md"
    assert "/health" in guide


def test_guide_links_point_at_files_that_exist() -> None:
    guide = GUIDE.read_text()
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", guide)
    local = [link for link in links if "://" not in link and not link.startswith("mailto:")]
    assert local
    for link in local:
        assert (GUIDE.parent / link).resolve().exists(), f"broken link {link}"
