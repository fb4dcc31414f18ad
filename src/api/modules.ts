import { clmModule } from './clm';
import { cmsModule } from './cms';
import { crmModule } from './crm';
import { esmModule } from './esm';
import { fpaModule } from './fpa';
import { hrmModule } from './hrm';
import type { ModuleDefinition } from './kit/module';
import { lmsModule } from './lms';
import { mailModule } from './mail';
import { marketModule } from './market';
import { ppmModule } from './ppm';

/** The modules that are built; a module not listed here has no listener. */
export const MODULES: readonly ModuleDefinition[] = [
  esmModule,
  clmModule,
  hrmModule,
  marketModule,
  ppmModule,
  crmModule,
  lmsModule,
  cmsModule,
  mailModule,
  fpaModule,
];
