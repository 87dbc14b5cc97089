#!/usr/bin/env bash
# Release rehearsal: builds what a release uploads to Maven Central (the release profile, with GPG
# signing and the upload skipped, nothing installed into the local repository) and checks what was
# staged: every artifact the BOM manages and every parent pom is there; each jar has its sources and
# javadoc jars; each pom, with what it inherits, has what Central requires (name, description, url,
# licenses, developers, scm) and names no version it leaves unresolved.
#
# Not offline: the Central plugin skips its staging in offline mode, although it uploads nothing here.
set -euo pipefail
cd "$(dirname "$0")/.."

source .ci/published-modules.sh
published=(:modelgate-idempotency-parent "${published[@]}")
modules=$(IFS=,; echo "${published[*]}")

staged=build-parent/target/central-deferred
rm -rf "$staged"
./mvnw -B -q -Prelease -Dgpg.skip -DskipUpload=true -DskipTests -Dmaven.install.skip=true \
  -pl "$modules" deploy

python3 - "$staged" modelgate-idempotency-bom/pom.xml <<'PY'
import os, re, sys
import xml.etree.ElementTree as ET

staged, bom = sys.argv[1], sys.argv[2]
ns = {'m': 'http://maven.apache.org/POM/4.0.0'}
poms, problems = {}, []
for root, _, files in os.walk(staged):
    for name in files:
        if name.endswith('.pom'):
            pom = ET.parse(os.path.join(root, name)).getroot()
            artifact = pom.find('m:artifactId', ns).text
            poms[artifact] = (root, pom)

def inherited(artifact, path):
    while artifact in poms:
        _, pom = poms[artifact]
        found = pom.find(path, ns)
        if found is not None and (found.text or len(found)):
            return found
        parent = pom.find('m:parent/m:artifactId', ns)
        artifact = parent.text if parent is not None else None
    return None

managed = set(re.findall(r'<artifactId>(modelgate-[^<]+)</artifactId>',
                         open(bom).read().split('<dependencyManagement>')[1].split('</dependencyManagement>')[0]))
for artifact in sorted(managed - set(poms)):
    problems.append(f'{artifact}: managed by the BOM, not staged')
for artifact, (directory, pom) in sorted(poms.items()):
    parent = pom.find('m:parent/m:artifactId', ns)
    if parent is not None and parent.text.startswith('modelgate') and parent.text not in poms:
        problems.append(f'{artifact}: its parent {parent.text} is not staged')
    for path in ('m:name', 'm:description', 'm:url', 'm:licenses/m:license/m:name',
                 'm:developers/m:developer/m:name', 'm:scm/m:url'):
        if inherited(artifact, path) is None:
            problems.append(f'{artifact}: no {path.replace("m:", "")}')
    packaging = pom.find('m:packaging', ns)
    if packaging is None or packaging.text == 'jar':
        version = os.path.basename(directory)
        for suffix in ('.jar', '-sources.jar', '-javadoc.jar'):
            if not os.path.exists(os.path.join(directory, f'{artifact}-{version}{suffix}')):
                problems.append(f'{artifact}: no {artifact}-{version}{suffix}')
    for dependency in pom.findall('m:dependencies/m:dependency', ns):
        version = dependency.find('m:version', ns)
        for prop in re.findall(r'\$\{([^}]+)\}', version.text if version is not None else ''):
            if not prop.startswith('project.') and inherited(artifact, 'm:properties/m:' + prop) is None:
                problems.append(f'{artifact}: dependency {dependency.find("m:artifactId", ns).text} '
                                f'has version {version.text}, which no published pom defines')
print(f'release rehearsal: {len(poms)} artifacts staged in {staged}')
if problems:
    print('\n'.join(problems))
    sys.exit(1)
PY
