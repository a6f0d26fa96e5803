/** An agent of a round and the host of its webhook (hostname only; null when it makes no request). */
export type HostedAgent = { id: string; host: string | null };

export type BatchLimits = {
  /** Most agents in a batch of several hosts. */
  batchAgents: number;
  /** Checks in flight at once in a batch of several hosts. */
  concurrency: number;
  /** Checks of one host in flight at once: a host with more agents than this gets batches of its own. */
  hostConcurrency: number;
  /** Most agents in a batch of one host (it runs hostConcurrency at a time). */
  hostBatchAgents: number;
};

/** A batch of agents to check or probe; `host` is set on a batch of one host (flow-controlled per host). */
export type HostBatch = { agents: string[]; host: string | null; concurrency: number };

/**
 * Cuts a round's agents into batches so that no owner's host is hit by many requests at once,
 * however its listings are spread (docs/operations.md, "Batches and the queue"):
 * - a host with at most `hostConcurrency` agents goes whole into a shared batch: even with every
 *   check of that batch in flight, the host sees at most `hostConcurrency` of them;
 * - a host with more gets batches of its own, of `hostBatchAgents` at most, each run
 *   `hostConcurrency` at a time; the queue runs one of a host's batches at a time (flow control
 *   keyed by the host), so the host still sees at most `hostConcurrency` at once.
 * Agents without a host (no webhook, or one that no longer decrypts) make no request and share
 * batches. Every agent is in exactly one batch; batches keep the order agents came in.
 */
export function cutHostBatches(agents: HostedAgent[], limits: BatchLimits): HostBatch[] {
  const byHost = new Map<string | null, string[]>();
  const hostless: string[] = [];
  for (const agent of agents) {
    if (agent.host === null) {
      hostless.push(agent.id);
      continue;
    }
    const ids = byHost.get(agent.host);
    if (ids) ids.push(agent.id);
    else byHost.set(agent.host, [agent.id]);
  }

  const batches: HostBatch[] = [];
  let shared: string[] = [];
  const closeShared = () => {
    if (shared.length > 0) batches.push({ agents: shared, host: null, concurrency: Math.min(limits.concurrency, shared.length) });
    shared = [];
  };
  const addShared = (ids: string[]) => {
    if (shared.length + ids.length > limits.batchAgents) closeShared();
    shared.push(...ids);
  };

  for (const [host, ids] of byHost) {
    if (ids.length <= limits.hostConcurrency) {
      addShared(ids);
      continue;
    }
    for (let i = 0; i < ids.length; i += limits.hostBatchAgents) {
      const part = ids.slice(i, i + limits.hostBatchAgents);
      batches.push({ agents: part, host, concurrency: Math.min(limits.hostConcurrency, part.length) });
    }
  }
  for (let i = 0; i < hostless.length; i += limits.batchAgents) addShared(hostless.slice(i, i + limits.batchAgents));
  closeShared();
  return batches;
}

// A delivery's body stays small (37 bytes an agent id: about 37 KB) and its records one statement.
const MAX_BATCH_AGENTS = 1_000;

/**
 * The limits for a round whose checks each wait `timeoutMs` at most: a batch finishes within
 * `batchBudgetMs` even when every check takes its full timeout (a batch is one function run when
 * QStash delivers it: the budget is kept well inside the function's time limit).
 */
export function batchLimits(options: {
  timeoutMs: number;
  concurrency: number;
  hostConcurrency: number;
  batchBudgetMs: number;
}): BatchLimits {
  const rounds = Math.max(1, Math.floor(options.batchBudgetMs / options.timeoutMs));
  const hostConcurrency = Math.min(options.hostConcurrency, options.concurrency);
  return {
    batchAgents: Math.min(MAX_BATCH_AGENTS, options.concurrency * rounds),
    concurrency: options.concurrency,
    hostConcurrency,
    hostBatchAgents: Math.min(MAX_BATCH_AGENTS, hostConcurrency * rounds),
  };
}
