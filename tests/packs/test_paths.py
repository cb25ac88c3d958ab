"""A path in a pack can never leave the pack folder (issue: a designer's first day, safety):
`..`, absolute paths and links to files outside are refused, and nothing outside is ever shown."""

import os
import shutil

import pytest

from swdsl.packs.loader import load_packs, resolve_pack

SECRET = "TOP-SECRET-LINE"


@pytest.fixture
def pack(tmp_path):
    folder = tmp_path / "mypack"
    shutil.copytree(resolve_pack("classic"), folder)
    (tmp_path / "secret.yaml").write_text(f"{SECRET}: [\n")
    return folder


def edit(folder, old, new):
    manifest = folder / "pack.yaml"
    text = manifest.read_text()
    assert old in text
    manifest.write_text(text.replace(old, new))


def codes(folder):
    loaded = load_packs([str(folder)])
    shown = " ".join(d.message + d.hint for d in loaded.diagnostics) + " ".join(loaded.sources.values())
    assert SECRET not in shown
    return [d.code for d in loaded.diagnostics if d.is_error]


@pytest.mark.parametrize("path", ["../secret.yaml", "maps/../../secret.yaml"])
def test_a_map_path_climbing_out_is_refused(pack, path):
    edit(pack, "map: maps/2p.yaml", f"map: {path}")
    assert codes(pack) == ["SW236"]


def test_an_absolute_map_path_is_refused(pack):
    edit(pack, "map: maps/2p.yaml", f"map: {pack.parent / 'secret.yaml'}")
    assert codes(pack) == ["SW236"]


def test_a_link_to_a_file_outside_is_refused(pack):
    os.symlink(pack.parent / "secret.yaml", pack / "maps" / "link.yaml")
    edit(pack, "map: maps/2p.yaml", "map: maps/link.yaml")
    assert codes(pack) == ["SW236"]


def test_a_rules_file_linked_from_outside_is_not_read(pack):
    (pack.parent / "evil.sw").write_text(f"race {SECRET.replace('-', '_')} {{\n  banner 1\n  supply 1\n}}\n")
    os.symlink(pack.parent / "evil.sw", pack / "races" / "evil.sw")
    loaded = load_packs([str(pack)])
    assert not any("evil" in path for path in loaded.sources)


def test_a_required_pack_must_be_bundled_or_inside(pack):
    edit(pack, "name: classic", "name: mine\nrequires: [../elsewhere]")
    assert codes(pack) == ["SW236"]


@pytest.mark.skipif(os.geteuid() == 0, reason="permissions do not bind root")
def test_an_unreadable_rules_folder_is_reported_not_skipped(pack):
    (pack / "races").chmod(0)
    try:
        assert "SW220" in codes(pack)
    finally:
        (pack / "races").chmod(0o755)
