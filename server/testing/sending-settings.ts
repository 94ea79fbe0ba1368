// No test runner here: the benchmarks use it too.

/** Sending settings of a campaign test: any hour, a limit it never reaches, the Cloud API or the personal number. */
export function sendingSettings(channel: 'cloud' | 'personal' = 'cloud', dailyLimit = 100_000) {
  return {
    autoReconnect: true,
    messageDelay: 1,
    dailyLimit,
    respectBusinessHours: false,
    businessStart: '09:00',
    businessEnd: '18:00',
    channel,
  };
}
