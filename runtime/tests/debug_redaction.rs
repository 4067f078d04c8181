//! The `Debug` of what keeps a request id or body from the service (an accepted write, a
//! pending activity, a tenant's outcome) goes through the client's redaction: a request id
//! echoing the client secret never shows (loopback server).

mod common;

use common::loopback::{Answer, Loopback};
use common::msp::{API, AUTH, JSON};
use ruckus_one_runtime::internal::{ErrorFamily, Operation, Request, Service};
use ruckus_one_runtime::{Client, Config, Credentials, Method, for_each_tenant};
use serde_json::{Value, json};

const SECRET: &str = "client-secret-4711";

static UNPACED: Service = Service {
    name: "things",
    rate_limit: None,
};

static CREATE: Operation = Operation {
    id: "create_thing",
    method: Method::Post,
    path: "/things",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::ErrorsArray,
    service: &UNPACED,
    reads: false,
};

static GET_ACTIVITY: Operation = Operation {
    id: "get_activity",
    method: Method::Get,
    path: "/activities/{requestId}",
    api: &API,
    versions: JSON,
    error_family: ErrorFamily::ErrorsArray,
    service: &UNPACED,
    reads: true,
};

fn assert_masked(what: &str, shown: &str) {
    assert!(!shown.contains(SECRET), "{what}: {shown}");
    assert!(shown.contains("***"), "{what}: {shown}");
}

#[tokio::test(start_paused = true)]
async fn a_request_id_echoing_a_secret_never_shows_in_debug() {
    let server = Loopback::start(|_| {
        Answer::json(
            202,
            json!({"requestId": format!("rid-{SECRET}")}).to_string(),
        )
    })
    .await;
    let config = Config::new(Credentials::new("id", SECRET))
        .base_url(&server.url)
        .token_tenant_id("owner");
    let client = Client::new(config, &AUTH).expect("client");
    let create = |client: Client| async move {
        let mut request = Request::new(&client, &CREATE, &[]);
        request.json(&json!({"name": "x"}));
        request.send_accepted::<Value, Value>(&GET_ACTIVITY).await
    };
    let accepted = create(client.clone()).await.expect("accepted");
    assert_masked("Accepted", &format!("{accepted:?}"));
    assert_masked("Accepted {:#?}", &format!("{accepted:#?}"));
    let pending = accepted.pending().expect("a request id");
    assert_masked("PendingActivity", &format!("{pending:?}"));
    let outcomes = for_each_tenant(&client, ["customer-1"], 1, |customer| async move {
        create(customer).await.map(|accepted| accepted.into_inner())
    })
    .await;
    assert!(outcomes[0].result.is_ok(), "the work succeeded");
    assert_masked("TenantOutcome", &format!("{outcomes:?}"));
}

#[test]
fn a_call_shows_its_operation_but_no_query_value_or_body() {
    let config = Config::new(Credentials::new("id", SECRET)).base_url("http://127.0.0.1:9");
    let client = Client::new(config, &AUTH).expect("client");
    let mut request = Request::new(&client, &CREATE, &[]);
    request.query("password", &"key-password-0815");
    request.json(&json!({"passphrase": "body-secret-0815"}));
    let call: ruckus_one_runtime::Call<'_, Value> = request.call(Request::send_json);
    let call = call.tenant("tenant-1");
    fn held_across_await<T: Send>(_: &T) {}
    held_across_await(&call);
    let shown = format!("{call:?}");
    assert!(shown.contains("create_thing"), "{shown}");
    assert!(!shown.contains("0815"), "{shown}");
    assert!(!shown.contains(SECRET), "{shown}");
}
