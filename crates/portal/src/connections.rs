//! Who holds the portal's connections. Every client (an IPv4 address, or an IPv6 /64, what one
//! machine or one customer line gets) may hold a bounded number of connections, and fewer that
//! have not shown a team's token or session: strangers cannot fill the server from a few
//! addresses. A connection counts as unauthenticated until one of its requests proves a team
//! (`Connection::authenticated`); it may stay so only for a bounded time (`http_server`). When
//! the whole server is full, a new connection takes the place of the oldest unauthenticated
//! one, so connections held open from many addresses slow the portal down but never lock it:
//! a new request always finds a place, and its answer takes milliseconds.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    /// Connections at once, all clients together.
    pub total: usize,
    /// Connections at once from one client.
    pub per_client: usize,
    /// Of those, connections that have not proven a team.
    pub unauthenticated_per_client: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            total: 512,
            per_client: 64,
            unauthenticated_per_client: 32,
        }
    }
}

/// Where connections come from, as far as the limits are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Client(IpAddr);

impl Client {
    pub fn of(address: IpAddr) -> Client {
        match address {
            IpAddr::V4(v4) => Client(IpAddr::V4(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Client(IpAddr::V4(v4)),
                // One subscriber gets a /64: its addresses are one client.
                None => Client(IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into())),
            },
        }
    }
}

impl std::fmt::Display for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

/// Why a connection was not taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The client holds as many connections as it may.
    PerClient,
    /// The client holds as many unauthenticated connections as it may.
    UnauthenticatedPerClient,
    /// Every place is held by an authenticated connection.
    EveryPlaceAuthenticated,
}

#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    all: usize,
    unauthenticated: usize,
}

#[derive(Default)]
struct Held {
    clients: HashMap<Client, Counts>,
    open: usize,
    /// The unauthenticated connections, oldest first, with the signal that cuts each.
    unauthenticated: BTreeMap<u64, (Client, Arc<Notify>)>,
    next_id: u64,
}

pub struct Table {
    limits: ConnectionLimits,
    held: Mutex<Held>,
}

/// One connection's place in the table, given back when dropped.
pub struct Connection {
    id: u64,
    client: Client,
    table: Arc<Table>,
    authenticated: AtomicBool,
    /// Notified when the connection must end at once (another took its place).
    pub cut: Arc<Notify>,
}

impl Table {
    pub fn new(limits: ConnectionLimits) -> Arc<Table> {
        Arc::new(Table {
            limits,
            held: Mutex::default(),
        })
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for a new connection from `client`, or why there is none.
    pub fn admit(self: &Arc<Table>, client: Client) -> Result<Connection, Refused> {
        let mut held = self.held();
        let counts = held.clients.get(&client).copied().unwrap_or_default();
        if counts.all >= self.limits.per_client {
            return Err(Refused::PerClient);
        }
        if counts.unauthenticated >= self.limits.unauthenticated_per_client {
            return Err(Refused::UnauthenticatedPerClient);
        }
        if held.open >= self.limits.total && !evict_oldest(&mut held) {
            return Err(Refused::EveryPlaceAuthenticated);
        }
        let id = held.next_id;
        held.next_id += 1;
        held.open += 1;
        let counts = held.clients.entry(client).or_default();
        counts.all += 1;
        counts.unauthenticated += 1;
        let cut = Arc::new(Notify::new());
        held.unauthenticated.insert(id, (client, cut.clone()));
        Ok(Connection {
            id,
            client,
            table: self.clone(),
            authenticated: AtomicBool::new(false),
            cut,
        })
    }

    /// Connections held now: (all, unauthenticated).
    #[cfg(test)]
    fn open(&self) -> (usize, usize) {
        let held = self.held();
        (held.open, held.unauthenticated.len())
    }
}

/// Cuts the oldest unauthenticated connection; false when there is none.
fn evict_oldest(held: &mut Held) -> bool {
    let Some((_, (client, cut))) = held.unauthenticated.pop_first() else {
        return false;
    };
    // Its place is free from now on: the connection itself ends at its next poll.
    cut.notify_one();
    held.open -= 1;
    let counts = held.clients.entry(client).or_default();
    counts.all -= 1;
    counts.unauthenticated -= 1;
    if counts.all == 0 {
        held.clients.remove(&client);
    }
    true
}

impl Connection {
    /// One of this connection's requests proved a team: it is held as authenticated from now
    /// on (no lifetime bound, never cut for a newcomer).
    pub fn authenticated(&self) {
        if self.is_authenticated() {
            return;
        }
        let mut held = self.table.held();
        // A connection already cut for a newcomer holds no place to move.
        if held.unauthenticated.remove(&self.id).is_some() {
            self.authenticated.store(true, Ordering::SeqCst);
            if let Some(counts) = held.clients.get_mut(&self.client) {
                counts.unauthenticated -= 1;
            }
        }
    }

    pub fn is_authenticated(&self) -> bool {
        self.authenticated.load(Ordering::SeqCst)
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        let mut held = self.table.held();
        let was_unauthenticated = held.unauthenticated.remove(&self.id).is_some();
        // A connection cut for a newcomer gave its place back already.
        if !was_unauthenticated && !self.is_authenticated() {
            return;
        }
        held.open -= 1;
        if let Some(counts) = held.clients.get_mut(&self.client) {
            counts.all -= 1;
            counts.unauthenticated -= usize::from(was_unauthenticated);
            if counts.all == 0 {
                held.clients.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(last: u8) -> Client {
        Client::of(IpAddr::from([127, 0, 0, last]))
    }

    #[test]
    fn a_client_holds_a_bounded_number_and_strangers_fewer() {
        let table = Table::new(ConnectionLimits {
            total: 100,
            per_client: 3,
            unauthenticated_per_client: 2,
        });
        let a = table.admit(client(2)).unwrap();
        let _b = table.admit(client(2)).unwrap();
        assert_eq!(
            table.admit(client(2)).err(),
            Some(Refused::UnauthenticatedPerClient)
        );
        a.authenticated();
        let _c = table.admit(client(2)).unwrap();
        assert_eq!(table.admit(client(2)).err(), Some(Refused::PerClient));
        // Another client is not held up.
        let _d = table.admit(client(3)).unwrap();
        assert_eq!(table.open(), (4, 3));
        drop(a);
        assert_eq!(table.open(), (3, 3));
        assert!(table.admit(client(2)).is_err(), "still two strangers of 2");
    }

    #[test]
    fn when_full_a_newcomer_takes_the_oldest_strangers_place() {
        let table = Table::new(ConnectionLimits {
            total: 3,
            per_client: 3,
            unauthenticated_per_client: 3,
        });
        let team = table.admit(client(1)).unwrap();
        team.authenticated();
        let oldest = table.admit(client(2)).unwrap();
        let younger = table.admit(client(3)).unwrap();
        let newcomer = table.admit(client(4)).unwrap();
        assert_eq!(table.open(), (3, 2));
        // The oldest stranger was told to go and its place is counted free.
        assert!(futures_util::FutureExt::now_or_never(oldest.cut.notified()).is_some());
        assert!(futures_util::FutureExt::now_or_never(younger.cut.notified()).is_none());
        oldest.authenticated(); // too late: it holds no place any more
        assert!(!oldest.is_authenticated());
        drop(oldest);
        assert_eq!(table.open(), (3, 2));
        // Only authenticated connections left to cut: none is.
        younger.authenticated();
        newcomer.authenticated();
        assert_eq!(
            table.admit(client(5)).err(),
            Some(Refused::EveryPlaceAuthenticated)
        );
        drop((team, younger, newcomer));
        assert_eq!(table.open(), (0, 0));
        assert!(table.held().clients.is_empty());
    }

    #[test]
    fn an_ipv6_client_is_its_slash_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(Client::of(a), Client::of(b));
        assert_ne!(Client::of(a), Client::of(c));
        let mapped: IpAddr = "::ffff:10.1.2.3".parse().unwrap();
        assert_eq!(Client::of(mapped), Client::of(IpAddr::from([10, 1, 2, 3])));
        assert_eq!(Client::of(a).to_string(), "2001:db8:1:2::/64");
    }
}
