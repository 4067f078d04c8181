//! The fields the import adds to curated types (`additions:` of an imported file): appended
//! to the curated type after its own fields when the spec is loaded.

use crate::diag::Diagnostics;
use crate::source::SourceFile;
use crate::spec::Area;

/// Appends the fields the import adds to curated types of the area (`additions:`), each with
/// the addition's provenance unless it states its own. A curated field of the same name stays
/// as the curated file has it.
pub(crate) fn add_fields(
    file: &SourceFile,
    area: &mut Area,
    additions: Vec<crate::spec::Addition>,
    diags: &mut Diagnostics,
) {
    for addition in additions {
        let target = area.types.iter_mut().find(|t| t.name == addition.target);
        let Some(fields) = target.and_then(|t| t.fields.as_mut()) else {
            diags.push_with(|| {
                file.diag(
                    &["additions:", &format!("type: {}", addition.target)],
                    format!(
                        "`{}` is no object type of the area's curated file (run `cargo xtask import --write`)",
                        addition.target
                    ),
                )
            });
            continue;
        };
        for mut f in addition.fields {
            if fields.iter().any(|known| known.name == f.name) {
                continue;
            }
            f.provenance
                .get_or_insert_with(|| addition.provenance.clone());
            fields.push(f);
        }
    }
}
