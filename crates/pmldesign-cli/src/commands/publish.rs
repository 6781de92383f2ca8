//! `pml publish`: the file handed to the receivers of a release, cut from the
//! data holder's verified design file ([`pmldesign_solver::PublicDesign`]).

use crate::args::publish::PublishArgs;
use crate::error::CliError;
use crate::io::load::{design_from_text, record_from_text};
use crate::io::matrix::read_text;
use crate::io::write::{check_outputs, emit};
use pmldesign_solver::{Design, PublicDesign, PublicRecord};

/// Runs `pml publish`.
pub fn run(a: PublishArgs) -> Result<(), CliError> {
    let output = a.output.as_deref().filter(|p| p.as_os_str() != "-");
    check_outputs(
        &[("--mechanism", Some(a.mechanism.as_path()))],
        &[("--output", output)],
    )?;
    let text = read_text("--mechanism", &a.mechanism)?;
    if let Some(r) = record_from_text("--mechanism", &a.mechanism, &text)? {
        let public = PublicRecord::of(&r)
            .map_err(|e| CliError::Usage(format!("--mechanism {}: {e}", a.mechanism.display())))?;
        let mut json = public.to_json();
        json.push('\n');
        emit(output, &json)?;
        let shown = output.map_or("stdout".into(), |p| p.display().to_string());
        crate::say::note(&format!(
            "pml publish: wrote {shown}: each column's mechanism, names and guarantee, and the record's, without the prior, counts, sample size or radii; a receiver re-checks the rows and LDP levels, and cannot re-verify {} (the design file, which you keep, certifies them)",
            public.unverified()
        ));
        return Ok(());
    }
    // Reading verifies the design: only a certified design is published.
    let d = design_from_text::<Design>("--mechanism", &a.mechanism, &text)?;
    let public = PublicDesign::of(&d);
    let mut json = public.to_json();
    json.push('\n');
    emit(output, &json)?;
    let shown = output.map_or("stdout".into(), |p| p.display().to_string());
    crate::say::note(&format!(
        "pml publish: wrote {shown}: the mechanism, its names and its guarantee, without the prior, counts or sample size; a receiver re-checks its rows and LDP level, and cannot re-verify {} (the design file, which you keep, certifies them)",
        public.unverified()
    ));
    Ok(())
}
