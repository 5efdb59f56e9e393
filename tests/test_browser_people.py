"""Who's playing, in a real browser: the chooser on a first visit, the person kept in the
browser's own localStorage across a reload, and a forged token that makes it a guest."""

from __future__ import annotations

import pytest
from nicegui.testing import Screen
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from components.person import PERSON_KEY

WAIT = 10.0


def who(screen: Screen) -> str:
    found = screen.selenium.find_elements(By.CSS_SELECTOR, '[data-testid="who-am-i"]')
    return found[0].text if found else ""


@pytest.mark.browser
def test_a_browser_becomes_ann_keeps_her_and_refuses_a_forged_token(screen: Screen) -> None:
    screen.open("/")
    chooser = screen.selenium.find_element(By.CSS_SELECTOR, '[data-testid="who-is-playing"]')
    assert "Who's playing?" in chooser.text and "Guest" in chooser.text
    screen.selenium.find_element(By.CSS_SELECTOR, '[data-testid="person-name"]').send_keys("Ann")
    screen.selenium.find_element(By.CSS_SELECTOR, '[data-testid="person-add"]').click()
    WebDriverWait(screen.selenium, WAIT).until(lambda _: who(screen) == "Playing as Ann")
    token = screen.selenium.execute_script("return localStorage.getItem(arguments[0])",
                                           PERSON_KEY)
    assert token and len(token) >= 32 and token not in screen.selenium.page_source

    screen.open("/")  # a reload keeps her, and asks nothing
    WebDriverWait(screen.selenium, WAIT).until(lambda _: who(screen) == "Playing as Ann")
    assert not screen.selenium.find_elements(By.CSS_SELECTOR, '[data-testid="who-is-playing"]')

    screen.selenium.execute_script("localStorage.setItem(arguments[0], arguments[1])",
                                   PERSON_KEY, token[:-4] + "AAAA")
    screen.open("/")
    WebDriverWait(screen.selenium, WAIT).until(lambda _: who(screen) == "Playing as Guest")
