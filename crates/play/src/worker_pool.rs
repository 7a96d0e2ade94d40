//! The worker threads every schedule plays its games on. A tournament hands them its plan, a
//! ladder the pairings it makes as results come in; either way a worker takes a job, plays it
//! and sends what it made back, until the jobs run out or its work says to stop (the engine is
//! asked to stop, or nobody takes the results any more).

use crossbeam_channel::{Receiver, Sender};
use std::thread::Scope;

/// What a worker does with one job: sends its results on the channel it is given, and says
/// whether to take another.
pub type Work<'a, J, R> = dyn Fn(J, &Sender<R>) -> bool + Sync + 'a;

/// Starts `workers` threads named `NAME-worker-N` in `scope`, each running `work` on the jobs it
/// takes from `jobs` until they run out or `work` answers `false`.
pub fn start<'scope, 'env: 'scope, J: Send + 'scope, R: Send + 'scope>(
    scope: &'scope Scope<'scope, 'env>,
    name: &str,
    workers: usize,
    (jobs, results): (&Receiver<J>, &Sender<R>),
    work: &'env Work<'env, J, R>,
) -> std::io::Result<()> {
    for worker in 0..workers {
        let (jobs, results) = (jobs.clone(), results.clone());
        std::thread::Builder::new()
            .name(format!("{name}-worker-{worker}"))
            .spawn_scoped(scope, move || {
                for job in jobs {
                    if !work(job, &results) {
                        break;
                    }
                }
            })?;
    }
    Ok(())
}
