"""The HTML viewer in a real browser (issue "Models in, pictures out"): headless Chromium
opens the file, logs no console error, draws a non-blank picture, and moving the scrubber
changes the drawn pose. Skipped when Chromium, ChromeDriver or selenium is missing
(``.ci/run`` installs the Debian packages chromium and chromium-driver)."""

import io
import shutil

import numpy as np
import pytest

import eslabon as es

webdriver = pytest.importorskip("selenium.webdriver")
pytest.importorskip("PIL")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver):
        pytest.skip("chromium / chromedriver not installed")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1100,700",
        f"--user-data-dir={tmp_path_factory.mktemp('chrome')}",
    ):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=webdriver.ChromeService(executable_path=driver), options=opts)
    yield d
    d.quit()


def test_viewer_draws_and_the_scrubber_moves_the_robot(browser, tmp_path):
    from PIL import Image
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from eslabon.viz.viewer import write_viewer

    model = es.zoo.load("puma560")
    traj = es.simulate(model, 0.5, 0.01, q0=[0, 0.3, 0.2, 0, 0.4, 0])
    page = write_viewer(model, traj, tmp_path / "view.html")
    browser.get(page.as_uri())
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    shot = np.asarray(Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("L"))
    assert shot.std() > 5  # not a blank page
    assert browser.execute_script("return window.eslabonViewer.frames") == len(traj.t)
    before = np.array(browser.execute_script("return window.eslabonViewer.pose()"))
    browser.find_element(By.ID, "scrub").send_keys(Keys.END)  # drag the scrubber to the end
    assert browser.execute_script("return window.eslabonViewer.frame") == len(traj.t) - 1
    after = np.array(browser.execute_script("return window.eslabonViewer.pose()"))
    assert before.shape == after.shape == (model.nb + 2, 2)
    assert np.abs(after - before).max() > 5.0  # pixels: the robot moved
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
