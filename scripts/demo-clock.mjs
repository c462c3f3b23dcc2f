/**
 * Loaded into the action's process by the demo (`node --import`): the action's clock reads the
 * demo's `--now`, as the simulator's data does, so a picture taken on a fixed clock shows what a
 * run on that day shows (tests that became unhealthy days before are recent) however long after it
 * is taken. Only Date.now moves, by a fixed offset: durations and timeouts are unchanged.
 */
const target = Number(process.env.TRUNK_HEALTH_GATE_DEMO_NOW);
if (Number.isFinite(target)) {
  const realNow = Date.now.bind(Date);
  const offset = target - realNow();
  Date.now = () => realNow() + offset;
}
