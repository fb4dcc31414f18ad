import { Anchor, Card, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useOpenApi } from '../api/modules';
import { resourceLabel } from '../api/names';
import { contextHeaders, tablesOf } from '../api/openapi';
import { useModuleParams } from '../api/use-module';
import { ErrorNotice } from '../components/ErrorNotice';
import { InlineMarkdown } from '../components/InlineMarkdown';
import { Loading } from '../components/Loading';
import { ModuleHeaders } from '../components/ModuleHeaders';
import { PageTitle } from '../components/PageTitle';

export default function ModulePage() {
  const { module } = useModuleParams();
  const api = useOpenApi(module?.id ?? '');
  if (!module) return <ErrorNotice error={new Error('No such module')} />;
  if (api.isPending) return <Loading />;
  if (api.isError) return <ErrorNotice error={api.error} />;
  return (
    <>
      <PageTitle
        title={module.title}
        description={api.data.info?.description && <InlineMarkdown text={api.data.info.description} />}
        trail={[{ label: 'Overview', to: '/' }]}
      />
      <ModuleHeaders module={module.id} headers={contextHeaders(api.data)} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {tablesOf(api.data).map((table) => (
          <Card key={table.name} withBorder>
            <Anchor component={Link} to={`/m/${module.id}/${table.name}`} fw={600}>
              {resourceLabel(table.name)}
            </Anchor>
            <Text size="sm" c="dimmed" mt={4}>
              {table.summary && <InlineMarkdown text={table.summary} />}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
