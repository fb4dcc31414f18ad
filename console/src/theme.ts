import { Alert, createTheme, NavLink, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // White on the default shade (6) falls short of a 4.5:1 contrast.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    // The light variants' text (a colour on its own lightest tint) falls short of 4.5:1.
    NavLink: NavLink.extend({ defaultProps: { variant: 'filled' } }),
    Alert: Alert.extend({ vars: () => ({ root: { '--alert-color': 'var(--mantine-color-dark-7)' } }) }),
    // The close button is an icon: it needs a name of its own. (A plain object: importing Modal here
    // would put it in the first load.)
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});

/** Dimmed text and errors darker than the defaults, for a contrast of at least 4.5:1 on white (WCAG AA). */
export const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Validation messages: the default red (shade 6) is 3.3:1 on white.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});

/** The colour of irreversible or refusing actions: a red dark enough for white text at 4.5:1. */
export const DANGER = 'red.9';
