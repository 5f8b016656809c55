// `teamchat-mock verify`: checks a running server (the real one, or a mock) against the
// description, so that a client suite green against the mock is known to hold against the server.
import { Command } from 'commander';
import { compileContract } from '../contract/contract.js';
import { Target, readZuliprc } from './target.js';
import { runSuite } from './suite.js';
import { lines, summary, writeReport } from './report.js';

interface VerifyOptions {
  target?: string;
  email?: string;
  apiKey?: string;
  zuliprc?: string;
  write: boolean;
  channel: string;
  report?: string;
}

export function verifyCommand(fail: (message: string) => never): Command {
  return new Command('verify')
    .description(
      'check a server against the OpenAPI description at the feature level it reports; exit 1 on any difference',
    )
    .option('--target <url>', 'the server to check, e.g. https://chat.example.com (default: the zuliprc site)')
    .option('--email <email>', 'the user to call as')
    .option('--api-key <key>', "that user's API key")
    .option('--zuliprc <file>', 'read email, key and site from this zuliprc file')
    .option('--write', 'also write: in one private channel it creates and one topic, cleaned up afterwards', false)
    .option('--channel <name>', 'with --write: the private channel to use', 'teamchat-mock-verify')
    .option('--report <file>', 'write the results as JSON, or JUnit XML when the name ends in .xml')
    .action(async (opts: VerifyOptions) => {
      const rc = opts.zuliprc ? readZuliprc(opts.zuliprc) : {};
      const site = opts.target ?? rc.site;
      const email = opts.email ?? rc.email;
      const apiKey = opts.apiKey ?? rc.key;
      if (!site || !email || !apiKey)
        fail('verify needs --target, --email and --api-key (or a --zuliprc with site, email and key)');
      let target: Target;
      try {
        target = new Target(site, { email, apiKey });
      } catch {
        fail(`verify: --target ${site} is not an absolute URL`);
      }
      const run = await runSuite(compileContract(), target, { write: opts.write, channel: opts.channel, site });
      for (const line of lines(run)) console.log(line);
      console.log(summary(run));
      if (opts.report) writeReport(opts.report, run);
      process.exitCode = run.results.every((r) => r.ok) ? 0 : 1;
    });
}
