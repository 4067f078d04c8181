//! `ruckus whoami`: who the calls would be made as (the profile, the tenant that owns the
//! token, the tenant acted for, the region and where calls go), from the same settings every
//! command resolves. Nothing is sent and no secret is shown.

use crate::exit::Failure;
use crate::opts::Opts;
use crate::{call, connect, ops};
use clap::Command;
use serde_json::json;

/// The `whoami` command's arguments.
pub(super) fn definition() -> Command {
    Command::new("whoami").about(
        "The profile in use, the token's tenant, the tenant acted for and the region (nothing is sent)",
    )
}

pub(super) async fn run(opts: &Opts) -> Result<(), Failure> {
    let conn = connect::connect(opts).await?;
    let client = &conn.client;
    let profile = if opts.local {
        "(--local: the simulator)".to_owned()
    } else {
        opts.profile.clone()
    };
    let region = match client.region() {
        ruckus_one_runtime::Region::Asia => "asia",
        ruckus_one_runtime::Region::Europe => "eu",
        ruckus_one_runtime::Region::NorthAmerica => "na",
    };
    let v = json!({
        "profile": profile,
        "tokenTenant": conn.token_tenant,
        "actingTenant": client.delegated_tenant().unwrap_or(&conn.token_tenant),
        "region": region,
        "baseUrl": client.base_url(ops::api(ops::table("network")?)),
    });
    call::single(opts, &v)
}
