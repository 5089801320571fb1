//! A pack's `license:`: an SPDX license expression, with the text of any license of its own
//! inside the pack.

use std::path::Path;

use super::resolve_inside;

/// Check a pack's `license:` (an SPDX license expression, strict: ids as the SPDX list spells
/// them, no deprecated ids) against the pack in `real_dir`: a `LicenseRef-<name>` needs its
/// text at `LICENSES/LicenseRef-<name>.txt` (the REUSE convention) inside the pack. On error, the
/// message and a hint.
pub(super) fn check_license(text: &str, real_dir: &Path) -> Result<(), (String, Option<String>)> {
    // The text is the pack author's: shown escaped (no control characters reach a terminal) and
    // cut short.
    let show = |t: &str| t.chars().take(80).flat_map(char::escape_debug).collect::<String>();
    let shown = show(text);
    let expr = spdx::Expression::parse(text).map_err(|e| {
        let at = text.get(e.span.clone()).filter(|t| !t.is_empty()).unwrap_or(text);
        // A near miss of an SPDX id ("Apache 2.0", "cc0") gets its id as the hint.
        let unknown = matches!(e.reason, spdx::error::Reason::UnknownTerm | spdx::error::Reason::UnknownLicense);
        let hint = unknown
            .then(|| spdx::imprecise_license_id(at).or_else(|| spdx::imprecise_license_id(text)))
            .flatten()
            .map(|(id, _)| format!("did you mean `{}`?", id.name));
        (format!("license `{shown}` is not an SPDX license expression: {} (at `{}`)", e.reason, show(at)), hint)
    })?;
    for req in expr.requirements() {
        let spdx::LicenseItem::Other(r) = &req.req.license else { continue };
        if let Some(doc) = &r.doc_ref {
            return Err((
                format!("license `{shown}` refers to another SPDX document (`DocumentRef-{}`)", show(doc)),
                Some(format!("name the license `LicenseRef-{}` and put its text in the pack", show(&r.lic_ref))),
            ));
        }
        // SPDX refs are letters, digits, `.` and `-` only: the name is a file name, never a path.
        let file = format!("LICENSES/LicenseRef-{}.txt", r.lic_ref);
        let found = resolve_inside(real_dir, &real_dir.join(&file)).is_some_and(|p| p.is_file());
        if !found {
            return Err((
                format!("license `LicenseRef-{}` has no text in the pack: {file} is missing", r.lic_ref),
                Some(format!("add {file} with the license's text, or use an SPDX id")),
            ));
        }
    }
    Ok(())
}
