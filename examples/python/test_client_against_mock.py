"""Examples: drive the API with requests, check what the client sent through the journal."""

HAMLET = ("hamlet@zulip.com", "waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f")


def test_sent_message_can_be_read_back(mock):
    hamlet = mock.client(*HAMLET)
    sent = hamlet.post(
        mock.api_url + "/messages",
        data={"type": "stream", "to": "Denmark", "topic": "pytest", "content": "Hello from pytest"},
    )
    assert sent.status_code == 200
    message_id = sent.json()["id"]

    read = hamlet.get(mock.api_url + "/messages/" + str(message_id))
    assert read.status_code == 200
    assert read.json()["message"]["content"] == "<p>Hello from pytest</p>"
    assert mock.verify(operation="send-message", user=HAMLET[0], status=200, params={"topic": "pytest"}) == 1


def test_push_relay_down_is_an_error_the_client_sees(mock):
    mock.activate("failed-to-connect-bouncer")
    hamlet = mock.client(*HAMLET)

    response = hamlet.post(mock.api_url + "/mobile_push/e2ee/test_notification")

    assert response.status_code == 502
    assert response.json()["code"] == "FAILED_TO_CONNECT_BOUNCER"
    assert mock.verify(operation="e2ee-test-notify", user=HAMLET[0], status=502) == 1


def test_each_test_starts_from_the_fixture(mock):
    # The scenario and the journal entries of the tests above are gone.
    scenarios = mock._call("GET", "/scenarios")
    assert scenarios["active"] == []
    assert mock.verify(operation="send-message") == 0
