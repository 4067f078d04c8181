//! The steps of a swap, derived from its [`Snapshot`]: each a call with its journal key.

use super::snapshot::Snapshot;
use serde::Serialize;
use serde_json::{Map, Value};

/// What a step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// Adds the new AP to the venue with the old one's identity fields.
    Add,
    /// Puts the new AP in the old one's group, with the same identity fields.
    Group,
    /// Writes one per-AP setting to the new AP.
    Setting,
    /// Places the new AP where the old one was on its floor plan.
    Position,
    /// Removes the old AP.
    Remove,
}

/// One step of a swap.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// What it does.
    pub kind: StepKind,
    /// Its key in the journal, which also describes it (`add AP 222222222222`).
    pub key: String,
    /// The operation it sends.
    pub operation: String,
    /// The operation's path parameters, in order.
    pub path: Vec<String>,
    /// The body it sends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
}

/// The steps that swap `s.old` for `s.new`: add, group, settings, position, then the removal
/// of the old AP unless `keep_old`.
pub fn steps(s: &Snapshot, keep_old: bool) -> Vec<Step> {
    let venue = s.venue_id.clone();
    let mut created: Map<String, Value> = s.identity.clone();
    created.insert("serialNumber".to_owned(), Value::String(s.new.clone()));
    let mut out = vec![Step {
        kind: StepKind::Add,
        key: format!("add AP {}", s.new),
        operation: "create_venue_ap".to_owned(),
        path: vec![venue.clone()],
        body: Some(Value::Object(created.clone())),
    }];
    if let Some(group) = &s.ap_group_id {
        let mut ap = created;
        ap.insert("apGroupId".to_owned(), Value::String(group.clone()));
        out.push(Step {
            kind: StepKind::Group,
            key: format!("put AP {} in group {group}", s.new),
            operation: "update_venue_ap".to_owned(),
            path: vec![venue.clone(), s.new.clone()],
            body: Some(Value::Object(ap)),
        });
    }
    for setting in &s.settings {
        out.push(Step {
            kind: StepKind::Setting,
            key: format!("copy {} to AP {}", setting.name, s.new),
            operation: setting.update.clone(),
            path: vec![venue.clone(), s.new.clone()],
            body: Some(setting.body.clone()),
        });
    }
    if let Some(p) = &s.position {
        out.push(Step {
            kind: StepKind::Position,
            key: format!("place AP {} on floor plan {}", s.new, p.floorplan_id),
            operation: "update_ap_floor_position".to_owned(),
            path: vec![venue.clone(), p.floorplan_id.clone(), s.new.clone()],
            body: Some(p.at.clone()),
        });
    }
    if !keep_old {
        out.push(Step {
            kind: StepKind::Remove,
            key: format!("remove AP {}", s.old),
            operation: "delete_venue_ap".to_owned(),
            path: vec![venue, s.old.clone()],
            body: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swap::snapshot::Setting;
    use serde_json::json;

    fn snapshot() -> Snapshot {
        Snapshot {
            old: "111".into(),
            new: "222".into(),
            venue_id: "v".into(),
            ap_group_id: Some("g".into()),
            identity: json!({"name": "Hall"}).as_object().cloned().unwrap(),
            position: None,
            settings: vec![Setting {
                name: "ledSettings".into(),
                update: "update_ap_led_settings".into(),
                body: json!({"ledEnabled": false, "useVenueSettings": false}),
            }],
        }
    }

    #[test]
    fn the_new_ap_is_added_grouped_and_set_before_the_old_is_removed() {
        let kinds: Vec<StepKind> = steps(&snapshot(), false).iter().map(|s| s.kind).collect();
        assert_eq!(
            kinds,
            [
                StepKind::Add,
                StepKind::Group,
                StepKind::Setting,
                StepKind::Remove
            ]
        );
        let add = &steps(&snapshot(), false)[0];
        assert_eq!(
            add.body,
            Some(json!({"name": "Hall", "serialNumber": "222"}))
        );
    }

    #[test]
    fn keep_old_leaves_out_the_removal() {
        let all = steps(&snapshot(), true);
        assert!(all.iter().all(|s| s.kind != StepKind::Remove));
    }
}
