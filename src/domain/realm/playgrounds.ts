// Code playgrounds: administrators add and remove them, with the real server's checks and
// wording (refusals of the model's validation carry `errors` by field); everyone then receives
// every playground again (`realm_playgrounds`).
import { ApiError, badRequest } from '../../errors.js';
import type { ParamsOf, WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { requireAdmin } from '../users/roles.js';
import { activeUserIds } from '../users/access.js';
import { templateVariables } from './linkifier-checks.js';

type Playground = NonNullable<WorldCtx['store']['realm']['playgrounds']>[number];

const refused = (field: string, msg: string) => new ApiError('BAD_REQUEST', msg, 400, { errors: { [field]: [msg] } });

function save(world: WorldCtx, playgrounds: Playground[]): void {
  world.store.updateRealm({ playgrounds });
  world.events.publish(activeUserIds(world.store), {
    type: 'realm_playgrounds',
    realm_playgrounds: playgrounds.map((p) => ({ ...p })),
  });
}

export function addPlayground(world: WorldCtx, actor: User, input: ParamsOf<'add-code-playground'>): { id: number } {
  requireAdmin(actor);
  if (!/^[ a-zA-Z0-9_+\-./#]*$/.test(input.pygments_language))
    throw badRequest('Invalid characters in pygments language');
  const name = input.name.trim();
  const language = input.pygments_language.trim();
  const template = input.url_template.trim();
  // The model's validation: the fields, then the template's variables, then uniqueness.
  if (!name) throw refused('name', 'This field cannot be blank.');
  if (!language) throw refused('pygments_language', 'This field cannot be blank.');
  const variables = templateVariables(template);
  if (variables === null || !template) throw refused('url_template', 'Invalid URL template.');
  if (!variables.has('code')) throw refused('__all__', 'Missing the required variable "code" in the URL template');
  if (variables.size !== 1) throw refused('__all__', '"code" should be the only variable present in the URL template');
  const playgrounds = world.store.realm.playgrounds ?? [];
  if (playgrounds.some((p) => p.name === name && p.pygments_language === language)) {
    throw refused('__all__', 'Realm playground with this Realm, Pygments language and Name already exists.');
  }
  const id = Math.max(0, ...playgrounds.map((p) => p.id)) + 1;
  save(world, [...playgrounds, { id, name, pygments_language: language, url_template: template }]);
  return { id };
}

export function removePlayground(world: WorldCtx, actor: User, input: ParamsOf<'remove-code-playground'>): void {
  requireAdmin(actor);
  const playgrounds = world.store.realm.playgrounds ?? [];
  if (!playgrounds.some((p) => p.id === input.playground_id)) throw badRequest('Invalid playground');
  save(
    world,
    playgrounds.filter((p) => p.id !== input.playground_id),
  );
}
