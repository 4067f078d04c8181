//! The `no_run` doctests of the crate page, of `Client` and of each area handler: calls of an
//! operation the spec has, so that they compile against the generated client.

use crate::ir::{ApiIr, AreaIr, Ir, Lifecycle, TypeRef};

/// A `no_run` doctest calling the area's first stable operation that needs no body and only
/// string arguments; None when the area has no such operation.
pub(super) fn area_example(krate: &str, api: &ApiIr, area: &AreaIr) -> Option<Vec<String>> {
    let op = area.operations.iter().find(|o| {
        o.is_generated()
            && o.lifecycle == Lifecycle::Stable
            && o.request.as_ref().is_none_or(|b| !b.required)
            && o.query
                .iter()
                .chain(&o.headers)
                .filter(|p| p.required)
                .all(|p| p.ty == TypeRef::String)
    })?;
    let args: Vec<String> = op
        .path_params
        .iter()
        .chain(op.query.iter().chain(&op.headers).filter(|p| p.required))
        .map(|p| format!("{:?}", format!("{}-value", p.wire)))
        .collect();
    Some(vec![
        "```no_run".into(),
        format!("# async fn example(client: &{krate}::Client) -> Result<(), {krate}::Error> {{"),
        format!(
            "let answer = client.{}().{}().{}({}).send().await?;",
            api.name,
            area.name,
            op.id,
            args.join(", ")
        ),
        "# let _ = answer;".into(),
        "# Ok(())".into(),
        "# }".into(),
        "```".into(),
    ])
}

/// The crate-level quick start: configuration with a region and the token tenant id, then the
/// first operation that has an area example.
pub(super) fn crate_example(ir: &Ir) -> Vec<String> {
    let krate = ir.krate.name.replace('-', "_");
    let call = first_call(ir);
    let mut lines = vec![
        String::new(),
        "# Quick start".into(),
        String::new(),
        "Configure the credentials of an application token, the region and the tenant that owns"
            .into(),
        "the token; then reach an operation through its API and area: `client.<api>().<area>()`."
            .into(),
        String::new(),
        "```no_run".into(),
        format!("use {krate}::{{Client, Config, Credentials, Region}};"),
        String::new(),
        format!("# async fn run() -> Result<(), {krate}::Error> {{"),
        "let config = Config::new(Credentials::new(\"client-id\", \"client-secret\"))".into(),
        "    .region(Region::Europe)".into(),
        "    .token_tenant_id(\"tenant-id\");".into(),
        "let client = Client::new(config)?;".into(),
    ];
    lines.extend(call);
    lines.extend([
        "# let _ = answer;".into(),
        "# Ok(())".into(),
        "# }".into(),
        "```".into(),
    ]);
    lines
}

/// The call of the crate's first operation an area example can make (`let answer = client...`).
fn first_call(ir: &Ir) -> Option<String> {
    let krate = ir.krate.name.replace('-', "_");
    ir.apis
        .iter()
        .flat_map(|api| api.areas.iter().map(move |a| (api, a)))
        .find_map(|(api, area)| area_example(&krate, api, area))
        .and_then(|lines| lines.into_iter().find(|l| l.starts_with("let answer")))
}

/// The example of `Client`'s docs: a client from the environment, the same client acting for a
/// delegated customer, and a call.
pub(super) fn client_example(ir: &Ir) -> Vec<String> {
    let krate = ir.krate.name.replace('-', "_");
    let call =
        first_call(ir).map(|c| c.replacen("let answer = client.", "let answer = customer.", 1));
    let mut lines = vec![
        String::new(),
        "```no_run".into(),
        format!("use {krate}::{{Client, Config}};"),
        String::new(),
        format!("# async fn run() -> Result<(), {krate}::Error> {{"),
        "// RUCKUS_CLIENT_ID, RUCKUS_CLIENT_SECRET, RUCKUS_TENANT_ID and RUCKUS_REGION.".into(),
        "let client = Client::new(Config::from_env()?)?;".into(),
        "// The same token and connections, acting for a delegated customer on every call.".into(),
        "let customer = client.with_tenant(\"customer-tenant-id\")?;".into(),
    ];
    match call {
        Some(call) => lines.extend([call, "# let _ = answer;".into()]),
        None => lines.push("# let _ = customer;".into()),
    }
    lines.extend(["# Ok(())".into(), "# }".into(), "```".into()]);
    lines
}
