#!/usr/bin/env bash
# Lay out HBase 2.5 and the Hadoop it runs on like their unpacked distributions, from Maven Central jars, in
# .cache/hbase-artifacts/<hbase version>/ (git-ignored), for a rehearsal's data nodes (YCSB_LAB_ENGINE_ARTIFACTS):
#   hadoop/share/hadoop/common/*.jar, common/lib/*.jar, hdfs/*.jar, hdfs/webapps/   as the Hadoop tarball unpacks
#   hbase/lib/*.jar, hbase/hbase-webapps/                             as the HBase -hadoop3 tarball unpacks
# The boot command then runs the same NameNode, DataNode, ZooKeeper, HMaster and HRegionServer main classes as
# on an instance, each as its own JVM. The versions follow model/engine.ts and the Hadoop release HBase's
# -hadoop3 artifacts are built against (engines/hbase/runtime.ts HADOOP_VERSION). A second run is a no-op.
#
# Prints the artifacts folder on stdout.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
hbase="${HBASE_VERSION:-$(sed -n 's/^ *hbase: "\([0-9.]*\)",.*/\1/p' "$root/model/engine.ts")}"
hadoop="${HADOOP_VERSION:-$(sed -n 's/^export const HADOOP_VERSION = "\([0-9.]*\)";.*/\1/p' "$root/engines/hbase/runtime.ts")}"
[[ -n "$hbase" && -n "$hadoop" ]] || { echo "setup-hbase-artifacts: cannot read the HBase or Hadoop version" >&2; exit 1; }
dest="${HBASE_ARTIFACTS_CACHE:-$root/.cache/hbase-artifacts}/$hbase"
stamp="$dest/.complete"
if [[ -f "$stamp" ]]; then echo "$dest"; exit 0; fi
rm -rf "$dest" && mkdir -p "$dest/fetch"

fetch() { # name, output folder, dependencies (groupId:artifactId:version ...)
  local name="$1" out="$2"; shift 2
  local deps=""
  for d in "$@"; do IFS=: read -r g a v <<<"$d"; deps+="<dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version></dependency>"; done
  cat > "$dest/fetch/$name.pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>local.ycsb-lab</groupId><artifactId>fetch-$name</artifactId><version>1</version>
<dependencies>$deps</dependencies></project>
POM
  echo "fetching $name ($*) ..." >&2
  if ! mvn -q -B -o dependency:copy-dependencies -f "$dest/fetch/$name.pom.xml" -DoutputDirectory="$out" -DincludeScope=runtime >/dev/null 2>&1; then
    mvn -q -B dependency:copy-dependencies -f "$dest/fetch/$name.pom.xml" -DoutputDirectory="$out" -DincludeScope=runtime >&2
  fi
}

# HBase's own jars and everything they run with (the tarball's lib/ holds the same, Hadoop client jars included).
fetch hbase "$dest/hbase/lib" "org.apache.hbase:hbase-server:$hbase-hadoop3" "org.apache.hbase:hbase-zookeeper:$hbase-hadoop3"
# Hadoop's HDFS daemons; hadoop-hdfs declares its client and common as provided, the tarball ships them.
fetch hadoop "$dest/fetch/hadoop" "org.apache.hadoop:hadoop-hdfs:$hadoop" "org.apache.hadoop:hadoop-hdfs-client:$hadoop" "org.apache.hadoop:hadoop-common:$hadoop"
h="$dest/hadoop/share/hadoop"
mkdir -p "$h/common/lib" "$h/hdfs/lib"
for jar in "$dest/fetch/hadoop"/*.jar; do
  case "$(basename "$jar")" in
    hadoop-common-"$hadoop".jar) mv "$jar" "$h/common/" ;;
    hadoop-hdfs-"$hadoop".jar | hadoop-hdfs-client-"$hadoop".jar) mv "$jar" "$h/hdfs/" ;;
    *) mv "$jar" "$h/common/lib/" ;;
  esac
done
# The daemons' web UIs: the tarball keeps them in share/hadoop/hdfs/webapps (bin/hdfs puts that folder on the
# classpath); on Maven Central they are in the hadoop-hdfs tests jar.
echo "fetching the HDFS web apps (hadoop-hdfs $hadoop tests jar) ..." >&2
if ! mvn -q -B -o dependency:copy -Dartifact="org.apache.hadoop:hadoop-hdfs:$hadoop:jar:tests" -DoutputDirectory="$dest/fetch" >/dev/null 2>&1; then
  mvn -q -B dependency:copy -Dartifact="org.apache.hadoop:hadoop-hdfs:$hadoop:jar:tests" -DoutputDirectory="$dest/fetch" >&2
fi
unzip -q -o "$dest/fetch/hadoop-hdfs-$hadoop-tests.jar" 'webapps/*' -d "$h/hdfs"
# HBase's likewise: the tarball has hbase-webapps/ at its top (bin/hbase puts the folder on the classpath).
echo "fetching the HBase web apps (hbase-server $hbase-hadoop3 tests jar) ..." >&2
if ! mvn -q -B -o dependency:copy -Dartifact="org.apache.hbase:hbase-server:$hbase-hadoop3:jar:tests" -DoutputDirectory="$dest/fetch" >/dev/null 2>&1; then
  mvn -q -B dependency:copy -Dartifact="org.apache.hbase:hbase-server:$hbase-hadoop3:jar:tests" -DoutputDirectory="$dest/fetch" >&2
fi
unzip -q -o "$dest/fetch/hbase-server-$hbase-hadoop3-tests.jar" 'hbase-webapps/*' -d "$dest/hbase"
rm -rf "$dest/fetch"

# The main classes the boot command starts (engines/hbase/runtime.ts) must be where the runtime's classpath looks.
has() { unzip -l "$1" "$2" >/dev/null 2>&1 || { echo "setup-hbase-artifacts: $2 is not in $1" >&2; exit 1; }; }
has "$h/hdfs/hadoop-hdfs-$hadoop.jar" org/apache/hadoop/hdfs/server/namenode/NameNode.class
has "$h/hdfs/hadoop-hdfs-$hadoop.jar" org/apache/hadoop/hdfs/server/datanode/DataNode.class
has "$dest/hbase/lib/hbase-server-$hbase-hadoop3.jar" org/apache/hadoop/hbase/master/HMaster.class
has "$dest/hbase/lib/hbase-server-$hbase-hadoop3.jar" org/apache/hadoop/hbase/regionserver/HRegionServer.class
[[ -f "$h/hdfs/webapps/hdfs/WEB-INF/web.xml" ]] || { echo "setup-hbase-artifacts: no webapps/hdfs in $h/hdfs" >&2; exit 1; }
[[ -d "$dest/hbase/hbase-webapps/master" ]] || { echo "setup-hbase-artifacts: no hbase-webapps/master in $dest/hbase" >&2; exit 1; }
zk="$(ls "$dest/hbase/lib"/zookeeper-3*.jar)"
has "$zk" org/apache/zookeeper/server/ZooKeeperServerMain.class
touch "$stamp"
echo "$dest"
