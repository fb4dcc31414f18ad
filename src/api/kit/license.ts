/** Where every API serves the terms its descriptions' `info.license` names. */
export const LICENSE_PATH = '/api/license';

/** The suite is proprietary: its package is `UNLICENSED`, no licence is granted to others. */
export const LICENSE_TERMS = `Proprietary: all rights reserved.

This API, its descriptions and the software that serves them are not licensed to others (the
package is UNLICENSED). Serving or describing them grants no licence to use, copy, modify or
distribute them; that takes the permission of their owner.
`;

const NAME = 'Proprietary (UNLICENSED)';

/**
 * The licence object of each form of a description. OpenAPI 3.1 names it by an SPDX expression: a
 * licence of the suite's own, not one of the SPDX list, is a `LicenseRef-`. OpenAPI 3.0.3 has no
 * identifier and names the terms by URL, relative to the API's base address (its one server, `/`).
 */
export const DESCRIBED_LICENSE = {
  runtime: { name: NAME, identifier: 'LicenseRef-Proprietary' },
  compatibility: { name: NAME, url: LICENSE_PATH },
};
