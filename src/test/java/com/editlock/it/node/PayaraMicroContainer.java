package com.editlock.it.node;

import com.editlock.launcher.PayaraNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.container.spi.client.protocol.metadata.Servlet;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;

/**
 * The suites' Arquillian container: each deployment is a stock Payara Micro node started exactly as
 * the run command starts one ({@link PayaraNode}: the toolchain's JDK, the shipped pre-boot file
 * and log settings, Hazelcast off, loopback only, context root {@code /}), and it is ready when the
 * application itself answers. Payara's own Arquillian connector (3.1) decided readiness by matching
 * Payara's console output, which on Payara 7 failed now and then with a deployed, working
 * application ("No applications were found deployed"); a node failing to start says why, with the
 * end of its log (a failed pre-boot line included).
 */
public final class PayaraMicroContainer
        implements DeployableContainer<PayaraMicroContainer.Configuration> {

    private static final AtomicInteger STARTS = new AtomicInteger();

    /** The log of the node deployed last (the test class running now talks to it). */
    private static volatile Path lastLog;

    /** The log of the node the running test class was deployed to. */
    public static java.util.Optional<Path> currentLog() {
        return java.util.Optional.ofNullable(lastLog);
    }

    private Configuration configuration;
    private PayaraNode node;

    @Override
    public Class<Configuration> getConfigurationClass() {
        return Configuration.class;
    }

    @Override
    public void setup(Configuration configuration) {
        this.configuration = configuration;
    }

    @Override
    public void start() {}

    @Override
    public void stop() {
        stopNode();
    }

    @Override
    public ProtocolDescription getDefaultProtocol() {
        return new ProtocolDescription("Servlet 5.0");
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        try {
            Path war = Path.of(System.getProperty("editlock.war"));
            Path dir = war.resolveSibling("arquillian");
            Files.createDirectories(dir);
            int n = STARTS.incrementAndGet();
            Path deployed = dir.resolve(n + "-" + archive.getName());
            archive.as(ZipExporter.class).exportTo(deployed.toFile(), true);
            Path log = dir.resolve(n + "-node.log");
            lastLog = log;
            int port = freePort();
            List<String> jvm =
                    Arrays.stream(configuration.getCmdOptions().trim().split("\\s+"))
                            .filter(o -> !o.isEmpty())
                            .toList();
            System.out.println(
                    "Starting Payara Micro on port "
                            + port
                            + " for "
                            + archive.getName()
                            + " (log: "
                            + log
                            + ")");
            node =
                    PayaraNode.startServing(
                            Path.of(configuration.getMicroJar()),
                            deployed,
                            Path.of(configuration.getServerConfig()),
                            port,
                            jvm,
                            log,
                            Duration.ofSeconds(configuration.getStartupTimeoutInSeconds()));
            HTTPContext context = new HTTPContext("localhost", port);
            context.add(new Servlet("ArquillianServletRunnerEE9", "/"));
            ProtocolMetaData metaData = new ProtocolMetaData();
            metaData.addContext(context);
            return metaData;
        } catch (IOException | RuntimeException e) {
            stopNode();
            throw new DeploymentException("Payara Micro did not start: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            stopNode();
            Thread.currentThread().interrupt();
            throw new DeploymentException("Interrupted while Payara Micro started", e);
        }
    }

    @Override
    public void undeploy(Archive<?> archive) {
        stopNode();
    }

    private void stopNode() {
        if (node != null) {
            node.stop();
            node = null;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** arquillian.xml's properties of the {@code payara} container. */
    public static final class Configuration
            implements org.jboss.arquillian.container.spi.client.container.ContainerConfiguration {

        private String microJar;
        private String serverConfig;
        private String cmdOptions = "";
        private int startupTimeoutInSeconds = 120;

        @Override
        public void validate() {
            if (microJar == null || serverConfig == null) {
                throw new IllegalStateException(
                        "arquillian.xml must name microJar and serverConfig");
            }
        }

        public String getMicroJar() {
            return microJar;
        }

        public void setMicroJar(String microJar) {
            this.microJar = microJar;
        }

        public String getServerConfig() {
            return serverConfig;
        }

        public void setServerConfig(String serverConfig) {
            this.serverConfig = serverConfig;
        }

        public String getCmdOptions() {
            return cmdOptions;
        }

        public void setCmdOptions(String cmdOptions) {
            this.cmdOptions = cmdOptions == null ? "" : cmdOptions;
        }

        public int getStartupTimeoutInSeconds() {
            return startupTimeoutInSeconds;
        }

        public void setStartupTimeoutInSeconds(int startupTimeoutInSeconds) {
            this.startupTimeoutInSeconds = startupTimeoutInSeconds;
        }
    }

    /** Registers the container with Arquillian (META-INF/services). */
    public static final class Extension implements org.jboss.arquillian.core.spi.LoadableExtension {
        @Override
        public void register(ExtensionBuilder builder) {
            builder.service(DeployableContainer.class, PayaraMicroContainer.class);
        }
    }
}
