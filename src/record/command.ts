// `teamchat-mock record-to-fixture <recording> --out <file>`: see to-fixture.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { FixtureError, defaultFixturePath, readStateFile } from '../store/fixture.js';
import { STATE_RULES } from '../domain/state-rules.js';
import { recordingToFixture } from './to-fixture.js';
import { isRecording, recordingScenario } from '../control/scenarios/recorder.js';

export function recordToFixtureCommand(fail: (message: string) => never): Command {
  return new Command('record-to-fixture')
    .description(
      'turn a --record recording into a fixture: its users, channels, subscriptions and messages over a base fixture',
    )
    .argument('<recording>', 'a recording file written by --record')
    .requiredOption('--out <file>', 'the fixture file to write')
    .option('--base <fixture>', 'the fixture the recorded rows are laid over (default: the embedded one)')
    .action((file: string, opts: { out: string; base?: string }) => {
      let recording;
      try {
        const text = readFileSync(file, 'utf8');
        // A recording (JSON Lines); a scenario file of recorded rules (older recordings) still works.
        recording = isRecording(text) ? recordingScenario(text, file) : JSON.parse(text);
      } catch (err) {
        fail(`record-to-fixture: ${file} cannot be read as a recording (${(err as Error).message})`);
      }
      try {
        const { state, counts } = recordingToFixture(
          recording,
          readStateFile(opts.base ?? defaultFixturePath(), STATE_RULES),
          file,
        );
        // The file holds API keys (fresh ones for new users): readable by its owner only, as a zuliprc.
        writeFileSync(opts.out, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
        console.log(
          `wrote ${opts.out}: ${counts.users} users, ${counts.streams} channels, ${counts.subscriptions} subscriptions, ${counts.messages} messages from ${file}`,
        );
      } catch (err) {
        if (err instanceof FixtureError) fail(`record-to-fixture: ${err.message}`);
        throw err;
      }
    });
}
