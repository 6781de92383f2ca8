//! Tests of `settings`.

use pmldesign_solver::internals::settings::*;
use std::time::Duration;
use std::time::Instant;

/// The estimation table's share comes off the loop's deadline, and never
/// puts the deadline before the start.
#[test]
fn the_estimation_table_takes_its_share_of_the_limit() {
    let cg = ColumnGenerationSettings {
        time_limit: Some(Duration::from_secs(5)),
        ..Default::default()
    };
    let t = Instant::now();
    let table = Duration::from_millis(700);
    let share =
        cg.deadline_from(t, 256).unwrap() - cg.estimation_deadline_from(t, 256, table).unwrap();
    assert_eq!(share, table);
    assert_eq!(
        cg.estimation_deadline_from(t, 257, Duration::ZERO),
        cg.deadline_from(t, 257)
    );
    assert_eq!(
        cg.estimation_deadline_from(t, 256, Duration::from_secs(60)),
        Some(t)
    );
    let unlimited = ColumnGenerationSettings::default();
    assert_eq!(unlimited.estimation_deadline_from(t, 256, table), None);
}
