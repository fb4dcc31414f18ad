import { Anchor, Breadcrumbs, Stack, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';

/** A page's heading, its trail back, and the tab's title. */
export function PageTitle({
  title,
  description,
  trail = [],
}: {
  title: string;
  description?: ReactNode;
  trail?: { label: string; to: string }[];
}) {
  useEffect(() => {
    document.title = `${title} · Suite console`;
  }, [title]);
  return (
    <Stack gap={4} mb="lg">
      {trail.length > 0 && (
        <Breadcrumbs aria-label="Breadcrumb">
          {trail.map((step) => (
            <Anchor key={step.to} component={Link} to={step.to} size="sm">
              {step.label}
            </Anchor>
          ))}
        </Breadcrumbs>
      )}
      <Title order={1}>{title}</Title>
      {description && <Text c="dimmed">{description}</Text>}
    </Stack>
  );
}
