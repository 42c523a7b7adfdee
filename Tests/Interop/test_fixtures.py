"""scripts/make-fixtures reproduces Tests/Fixtures byte for byte from the pinned reference packages."""
import filecmp
import os
import subprocess
import sys

from conftest import ROOT

FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
GENERATED = ["utopia-messages.json", "codes-pyntbci.json",
             "mgold_61_6521_psk_60hz.txt", "mgold_65_6532_psk_60hz.txt"]


def test_make_fixtures_reproduces_the_committed_files_byte_for_byte(tmp_path):
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make-fixtures"), str(tmp_path)],
                   check=True, timeout=120)
    assert sorted(os.listdir(tmp_path)) == sorted(GENERATED)
    for name in GENERATED:
        assert filecmp.cmp(os.path.join(FIXTURES, name), os.path.join(tmp_path, name), shallow=False), \
            "%s differs from the committed Tests/Fixtures/%s" % (name, name)


def test_every_committed_fixture_is_regenerated_or_documented():
    committed = sorted(os.listdir(FIXTURES))
    assert committed == sorted(GENERATED + ["README.md"])
