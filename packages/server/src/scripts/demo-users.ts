import { Faker, base, en, zh_CN } from '@faker-js/faker';
import { NICKNAME_MAX, USERNAME_MAX } from '@luntan/shared';
import type { Lang } from './demo-content.js';

export interface DemoUserProfile {
  username: string;
  nickname: string;
  lang: Lang;
}

/** Fixed, so that every run of the seeder finds the same pool of demo users (and reuses those that exist). */
const USERS_SEED = 4_2026;

/** Only what registration accepts: letters of any script, digits, underscore and hyphen. */
const usernameOf = (s: string) =>
  [...s.replace(/[^\p{L}\p{N}_-]+/gu, '_').replace(/^_+|_+$/g, '')].slice(0, USERNAME_MAX).join('');

/**
 * The demo user pool: seven in ten write Chinese (a Chinese name as username and nickname), the others English
 * (a faker user name, a "First Last" nickname). Names stay unique without regard to case.
 */
export function demoUserProfiles(count: number): DemoUserProfile[] {
  const zh = new Faker({ locale: [zh_CN, base] });
  const enFaker = new Faker({ locale: [en, base] });
  zh.seed(USERS_SEED);
  enFaker.seed(USERS_SEED);
  const taken = new Set<string>();
  const out: DemoUserProfile[] = [];
  for (let i = 0; out.length < count; i += 1) {
    const lang: Lang = i % 10 < 7 ? 'zh' : 'en';
    let username: string;
    let nickname: string;
    if (lang === 'zh') {
      nickname = zh.person.fullName();
      username = usernameOf(nickname);
    } else {
      const firstName = enFaker.person.firstName();
      const lastName = enFaker.person.lastName();
      nickname = `${firstName} ${lastName}`;
      username = usernameOf(enFaker.internet.username({ firstName, lastName }));
    }
    // A second 张伟 becomes 张伟2, and so on.
    let unique = username;
    for (let n = 2; taken.has(unique.toLowerCase()) || [...unique].length < 2; n += 1) {
      unique = `${[...username].slice(0, USERNAME_MAX - String(n).length).join('')}${n}`;
    }
    taken.add(unique.toLowerCase());
    out.push({ username: unique, nickname: [...nickname].slice(0, NICKNAME_MAX).join(''), lang });
  }
  return out;
}
