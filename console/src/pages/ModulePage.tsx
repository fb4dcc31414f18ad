import { Anchor, Card, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useModuleIndex, useOpenApi } from '../api/modules';
import { contextHeaders } from '../api/openapi';
import { useModuleParams } from '../api/use-module';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { ModuleHeaders } from '../components/ModuleHeaders';
import { PageTitle } from '../components/PageTitle';

export default function ModulePage() {
  const { module } = useModuleParams();
  const index = useModuleIndex(module?.id ?? '');
  const api = useOpenApi(module?.id ?? '');
  if (!module) return <ErrorNotice error={new Error('No such module')} />;
  if (index.isPending) return <Loading />;
  if (index.isError) return <ErrorNotice error={index.error} />;
  return (
    <>
      <PageTitle
        title={module.title}
        description={index.data.description}
        trail={[{ label: 'Overview', to: '/' }]}
      />
      {api.data && <ModuleHeaders module={module.id} headers={contextHeaders(api.data)} />}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {index.data.resources.map((resource) => (
          <Card key={resource.name} withBorder>
            <Anchor component={Link} to={`/m/${module.id}/${resource.name}`} fw={600}>
              {resource.name}
            </Anchor>
            <Text size="sm" c="dimmed" mt={4}>
              {resource.description}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
