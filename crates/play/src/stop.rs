//! A stop asked of a run by one of its own (a benchmark, the end of a tournament, the portal),
//! which every thread of the run can wait for among its other channels: a loop that has
//! nothing to do sleeps until something happens, rather than looking at a flag on a timer.

use crossbeam_channel::{Receiver, Sender};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

pub struct Stop {
    asked: AtomicBool,
    /// Dropped when the stop is asked: every receiver then wakes at once.
    sender: Mutex<Option<Sender<()>>>,
    receiver: Receiver<()>,
}

impl Default for Stop {
    fn default() -> Self {
        let (sender, receiver) = crossbeam_channel::bounded(0);
        Stop {
            asked: AtomicBool::new(false),
            sender: Mutex::new(Some(sender)),
            receiver,
        }
    }
}

impl Stop {
    pub fn request(&self) {
        self.asked.store(true, Ordering::SeqCst);
        self.sender.lock().unwrap_or_else(|p| p.into_inner()).take();
    }

    pub fn is_requested(&self) -> bool {
        self.asked.load(Ordering::SeqCst)
    }

    /// A channel that is ready (disconnected) once the stop is asked: for `select!`. A loop
    /// that goes on after the stop (to finish its work) must stop selecting on it.
    pub fn receiver(&self) -> &Receiver<()> {
        &self.receiver
    }
}

/// Asks `stop` when dropped: a scope's helpers end however the scope does.
pub struct StopOnDrop<'a>(pub &'a Stop);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.request();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn every_receiver_wakes_once_the_stop_is_asked() {
        let stop = Stop::default();
        let waiting = stop.receiver().clone();
        assert!(waiting.recv_timeout(Duration::from_millis(10)).is_err());
        assert!(!stop.is_requested());
        std::thread::scope(|scope| {
            let waiter = scope.spawn(|| waiting.recv().is_err());
            {
                let _asks = StopOnDrop(&stop);
            }
            assert!(waiter.join().unwrap());
        });
        assert!(stop.is_requested());
        assert!(stop
            .receiver()
            .try_recv()
            .is_err_and(|e| e.is_disconnected()));
    }
}
