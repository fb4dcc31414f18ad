import { esmModule } from './esm';
import type { ModuleDefinition } from './kit/module';

/** The modules that are built; a module not listed here has no listener. */
export const MODULES: readonly ModuleDefinition[] = [esmModule];
