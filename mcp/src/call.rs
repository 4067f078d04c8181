//! The invoke tools: find the operation, check it is of the tool's effect and allowed, check
//! its arguments, ask before a delete, then send (an asynchronous write as a task).

use rmcp::model::{CallToolRequestParams, CallToolResponse};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value, json};

use crate::args;
use crate::confirm::{Answer, Step, TaskLink, quoted};
use crate::index::{Effect, Op};
use crate::invoke::Call;
use crate::output;
use crate::paging::{Fields, Page};
use crate::server::Inner;

/// The message for an id the tables do not have.
pub(crate) fn unknown(id: &str) -> String {
    format!("unknown operation `{id}`: find operation ids with search_operations")
}

/// Runs an invoke tool of `effect`.
pub(crate) async fn invoke(
    server: &Inner,
    effect: Effect,
    request: &CallToolRequestParams,
    args: &Map<String, Value>,
    context: &RequestContext<RoleServer>,
) -> CallToolResponse {
    let client = server.client();
    let call = match prepare(server, effect, args) {
        Ok(call) => call,
        Err(message) => return output::error(client, &message).into(),
    };
    let task = spec_task(request, context);
    if effect == Effect::Delete {
        let link = task.as_deref().map(|id| TaskLink {
            store: &server.spec_tasks,
            id,
        });
        match confirm(server, &call, args, request, context, link).await {
            Step::Answered(Answer::Confirmed) => {}
            Step::Answered(Answer::Declined) => {
                return output::text(client, "declined by the user: nothing was deleted").into();
            }
            Step::Ask(question) => return CallToolResponse::InputRequired(question),
            Step::Unsupported(message) => return output::error(client, &message).into(),
        }
    }
    if let Some(task) = task {
        // A 2025-11-25 task: the call runs here, its status message following the activity.
        let store = server.spec_tasks.clone();
        let progress = move |message: String| store.set_message(&task, message);
        let outcome = server.writer.run(&call, &progress).await;
        return output::outcome(client, outcome).into();
    }
    if effect != Effect::Read && call.op.route.asynchronous {
        let tasks = context
            .client_capabilities()
            .is_some_and(|c| c.supports_tasks());
        if tasks {
            let writer = server.writer.clone();
            return CallToolResponse::Task(writer.spawn(&server.tasks, call, output::outcome));
        }
        let outcome = server.writer.run(&call, &|_| {}).await;
        return output::outcome(client, outcome).into();
    }
    let outcome = call.send(client).await;
    match effect {
        Effect::Read => output::read_outcome(client, outcome).into(),
        _ => output::outcome(client, outcome).into(),
    }
}

/// The MCP 2025-11-25 task this call runs, as the stdio adapter marks it in `_meta`.
fn spec_task(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> Option<String> {
    let key = crate::spec_tasks::META_KEY;
    let from_request = request.meta.as_ref().and_then(|m| m.0.get(key));
    let marked = from_request.or_else(|| context.meta.0.get(key))?;
    marked.as_str().map(str::to_owned)
}

/// The call the arguments describe, once the policy allows it and the arguments fit.
fn prepare(server: &Inner, effect: Effect, args: &Map<String, Value>) -> Result<Call, String> {
    let id = args.get("operation").and_then(Value::as_str).unwrap_or("");
    let op = server.index.get(id).ok_or_else(|| unknown(id))?;
    if op.effect() != effect {
        return Err(format!(
            "{} is a {} operation: call it with {}",
            op.id(),
            op.effect().as_str(),
            op.effect().tool()
        ));
    }
    let tenant = args
        .get("tenant")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if let Some(refusal) = server.policy.refusal(effect, tenant.as_deref()) {
        return Err(format!("refused: {refusal}; nothing was sent"));
    }
    let empty = Map::new();
    let params = match args.get("params") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(map)) => map,
        Some(_) => return Err("`params` must be an object of parameters by name".to_owned()),
    };
    // A query's body selects the page: an empty one asks for everything.
    let query_body = op
        .route
        .paging
        .as_ref()
        .is_some_and(|p| p.style == ruckus_one_catalog::PageStyle::QueryBody);
    let body = match args.get("body") {
        None | Some(Value::Null) if query_body => Some(json!({})),
        None | Some(Value::Null) => None,
        Some(body) => Some(body.clone()),
    };
    let checked = args::check(op, params, body.as_ref())?;
    let page = match (&op.route.paging, effect) {
        (Some(_), Effect::Read) => {
            let asked = args.get("fields").and_then(Value::as_array).map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            });
            Some(Page::of(
                args.get("limit").and_then(Value::as_u64),
                args.get("cursor").and_then(Value::as_str),
                Fields::of(asked, &op.route.columns),
            )?)
        }
        _ if ["fields", "cursor", "limit"]
            .iter()
            .any(|k| args.contains_key(*k)) =>
        {
            return Err(format!(
                "{} is not paged: `limit`, `cursor` and `fields` are for paged reads",
                op.id()
            ));
        }
        _ => None,
    };
    Ok(Call {
        op,
        args: checked,
        tenant,
        page,
    })
}

/// Asks the user to confirm the delete `call`, naming what and in which account.
async fn confirm(
    server: &Inner,
    call: &Call,
    args: &Map<String, Value>,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
    task: Option<TaskLink<'_>>,
) -> Step {
    let key = json!({
        "operation": call.op.id(),
        "params": args.get("params"),
        "body": args.get("body"),
        "tenant": call.tenant,
    })
    .to_string();
    let state = request.request_state.as_deref();
    let responses = request.input_responses.as_ref().map(|r| {
        r.iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect::<Map<String, Value>>()
    });
    if state.is_some() && responses.is_some() {
        return server
            .pending
            .confirm(&key, "", state, responses.as_ref(), context, task)
            .await;
    }
    let message = question(server, call).await;
    server
        .pending
        .confirm(&key, &message, None, None, context, task)
        .await
}

/// The question: what the catalog says (trusted), then every value a model chose or the
/// service sent, each quoted as a JSON string ([`confirm::quoted`]), so no value can end its
/// quoting or add a line: `Delete venue (delete_venue: DELETE /venues/{venueId}) in customer
/// account "t-9"? venueId "v-1", named "Lobby". This cannot be undone.`
async fn question(server: &Inner, call: &Call) -> String {
    let route = call.op.route;
    let mut values: Vec<String> = route
        .path_params
        .iter()
        .zip(&call.args.path)
        .map(|(p, value)| format!("{} {}", p.name, quoted(value)))
        .collect();
    if let Some(name) = name_of(server, call).await {
        values.push(format!("named {}", quoted(&name)));
    }
    if route.path_params.is_empty() {
        values.push("the objects the request body names".to_owned());
    }
    let account = match (&call.tenant, &server.own_tenant) {
        (Some(t), _) => format!("customer account {}", quoted(t)),
        (None, Some(own)) => format!("account {} (this server's own)", quoted(own)),
        (None, None) => "this server's own account".to_owned(),
    };
    format!(
        "{} ({}: {} {}) in {account}? {}. This cannot be undone.",
        route.summary,
        call.op.id(),
        route.method.as_str(),
        route.path,
        values.join(", ")
    )
}

/// The name of the object a delete removes, read with the `GET` of the same path (if any).
async fn name_of(server: &Inner, call: &Call) -> Option<String> {
    let route = call.op.route;
    let read = server.index.ops.iter().find(|op: &&Op| {
        op.table.api.name == call.op.table.api.name
            && op.route.path == route.path
            && op.effect() == Effect::Read
            && op.route.method == ruckus_one_catalog::Method::Get
    })?;
    let read_call = Call {
        op: *read,
        args: args::Checked {
            path: call.args.path.clone(),
            ..args::Checked::default()
        },
        tenant: call.tenant.clone(),
        page: None,
    };
    let value = read_call.send(server.client()).await.ok()?;
    value
        .get("name")
        .and_then(Value::as_str)
        .map(|n| server.client().redact(n))
}
