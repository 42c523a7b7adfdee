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


# Real recordings written by other people's software, copied unchanged (gunzipped) with their provenance.
COPIED = ["mindaffectBCI_exampledata.txt", "fapra_sub-p001_ses-s001_run-001_task-training.xdf", "mgold_61_6521.npz"]
COPIED_FORMATS = ["Newtest17-256.bdf", "bci_essentials_switch_example.xdf", "mne_test_biosemi72_2048Hz.bdf",
                  "test_edf_overlapping_annotations.edf", "brainvision/test.vhdr", "brainvision/test.vmrk",
                  "brainvision/test.eeg"]


def test_every_committed_fixture_is_regenerated_or_documented():
    committed = sorted(os.listdir(FIXTURES))
    assert committed == sorted(GENERATED + COPIED + ["README.md", "formats"])
    formats = os.path.join(FIXTURES, "formats")
    found = sorted(os.path.relpath(os.path.join(folder, name), formats)
                   for folder, _, names in os.walk(formats) for name in names)
    assert found == sorted(COPIED_FORMATS + ["README.md"])
    # Each copied recording names its source (repository and commit) in the README beside it.
    readme = open(os.path.join(FIXTURES, "README.md"), encoding="utf-8").read()
    formats_readme = open(os.path.join(formats, "README.md"), encoding="utf-8").read()
    for name in COPIED:
        assert name.split("_exampledata")[0] in readme, name
    for name in COPIED_FORMATS:
        assert os.path.basename(name).split(".")[0] in formats_readme, name
