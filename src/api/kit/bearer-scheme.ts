import type { ModuleAccess, SecurityScheme } from './module';

/** How the descriptions name the bearer credentials every port takes. */
export const BEARER_AUTH: SecurityScheme = {
  type: 'http',
  scheme: 'bearer',
  description:
    'An API key (`suite keys create`), a token of the configured identity provider (OIDC), or the ' +
    'bootstrap administrator\u2019s SUITE_API_TOKEN; each operation names the role it needs (`x-required-role`)',
};

/** What a bearer credential check may answer, for the descriptions. */
export const BEARER_ERRORS: ModuleAccess['errors'] = {
  401: 'Missing or invalid bearer credential',
  403: 'A valid credential without the role the operation needs (code `forbidden`, naming the role)',
  503: 'No credential can be checked: no API token, no identity provider (and no valid API key)',
};
